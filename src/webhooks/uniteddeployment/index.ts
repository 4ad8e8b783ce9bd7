/**
 * Admission logic of UnitedDeployment (`muniteddeployment.kb.io`, `vuniteddeployment.kb.io`) on the
 * v1beta1 hub; both versions share the spec, so there are no version-specific rules.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { checkWorkloadDeletion } from '../protection/workload.js';
import { validateMetaUpdate } from '../common/meta.js';
import { defaultUnitedDeploymentObject } from './defaulting.js';
import { validateUnitedDeployment } from './validation.js';
import { validateUnitedDeploymentUpdate } from './update.js';

async function validate(input: AdmissionInput): Promise<FieldError[]> {
  if (input.request.operation === 'DELETE') {
    await checkWorkloadDeletion(input);
    return [];
  }
  const obj = input.object as KObject;
  const errs = validateUnitedDeployment(obj);
  const old = input.request.operation === 'UPDATE' ? input.oldObject : undefined;
  if (old) errs.push(...validateMetaUpdate(obj, old), ...validateUnitedDeploymentUpdate(obj, old));
  return errs;
}

export const unitedDeploymentWebhooks: KindWebhooks = {
  default: defaultUnitedDeploymentObject,
  validate,
  invalidCode: 422,
};
