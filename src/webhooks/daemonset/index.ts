/**
 * Admission logic of Advanced DaemonSet (`mdaemonset.kb.io`, `vdaemonset.kb.io`): spec defaults
 * only (no template defaults), validation on create and update; there is no delete webhook.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import { defaultDaemonSet, type DaemonSet } from '../../api/kruise/workloads/index.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { validateMetaUpdate } from '../common/meta.js';
import { validateDaemonSet, validateDaemonSetSpecUpdate } from './validation.js';

function defaultObject(input: AdmissionInput): KObject {
  if (!input.object) throw new Error('DaemonSet defaulting needs an object');
  return defaultDaemonSet(input.object as unknown as DaemonSet) as unknown as KObject;
}

function validate(input: AdmissionInput): FieldError[] {
  const obj = input.object;
  if (input.request.operation === 'DELETE' || !obj) return [];
  const errs: FieldError[] = [];
  const old = input.request.operation === 'UPDATE' ? input.oldObject : undefined;
  if (old) errs.push(...validateMetaUpdate(obj, old), ...validateDaemonSetSpecUpdate(obj, old));
  errs.push(...validateDaemonSet(obj, input.version === 'v1alpha1'));
  return errs;
}

export const daemonSetWebhooks: KindWebhooks = {
  default: defaultObject,
  validate,
  invalidCode: 422,
};
