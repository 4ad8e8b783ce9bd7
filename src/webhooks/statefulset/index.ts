/**
 * Admission logic of Advanced StatefulSet (`mstatefulset.kb.io`, `vstatefulset.kb.io`) on the
 * v1beta1 hub. Field errors deny with 422; an InPlaceOnly template change is a plain 422 denial.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from '../kind-webhook.js';
import { withDeletionProtection } from '../protection/workload.js';
import { validateMetaUpdate } from '../common/meta.js';
import { defaultStatefulSetObject, StatefulSetAutoResizePVCGate } from './defaulting.js';
import { validateStatefulSet } from './validation.js';
import { inPlaceOnlyViolation, validateClaimTemplateUpdate, validateStatefulSetSpecUpdate } from './update.js';

async function validateWrite(obj: KObject, old: KObject | undefined, input: AdmissionInput): Promise<FieldError[]> {
  const errs = validateStatefulSet(obj);
  if (!old) return errs;
  errs.push(...validateMetaUpdate(obj, old), ...validateStatefulSetSpecUpdate(obj, old));
  if (errs.length > 0) return errs;
  if (input.gate(StatefulSetAutoResizePVCGate)) {
    const claimErrs = await validateClaimTemplateUpdate(input.client, obj, old);
    if (claimErrs.length > 0) return claimErrs;
  }
  const violation = inPlaceOnlyViolation(obj, old);
  if (violation) throw new AdmissionDenied(422, violation);
  return [];
}

export const statefulSetWebhooks: KindWebhooks = {
  default: defaultStatefulSetObject,
  validate: withDeletionProtection(validateWrite),
  invalidCode: 422,
};
