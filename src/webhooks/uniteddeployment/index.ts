/**
 * Admission logic of UnitedDeployment (`muniteddeployment.kb.io`, `vuniteddeployment.kb.io`) on the
 * v1beta1 hub; both versions share the spec, so there are no version-specific rules.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import type { KindWebhooks } from '../kind-webhook.js';
import { withDeletionProtection } from '../protection/workload.js';
import { validateMetaUpdate } from '../common/meta.js';
import { defaultUnitedDeploymentObject } from './defaulting.js';
import { validateUnitedDeployment } from './validation.js';
import { validateUnitedDeploymentUpdate } from './update.js';

function validateWrite(obj: KObject, old: KObject | undefined): FieldError[] {
  const errs = validateUnitedDeployment(obj);
  if (old) errs.push(...validateMetaUpdate(obj, old), ...validateUnitedDeploymentUpdate(obj, old));
  return errs;
}

export const unitedDeploymentWebhooks: KindWebhooks = {
  default: defaultUnitedDeploymentObject,
  validate: withDeletionProtection(validateWrite),
  invalidCode: 422,
};
