/** EphemeralJob admission (v1alpha1 only): validating only. */
import type { KindWebhooks } from '../kind-webhook.js';
import { validateEphemeralJobRequest } from './validation.js';

export { validateEphemeralJob } from './validation.js';

export const ephemeralJobWebhooks: KindWebhooks = {
  validate: validateEphemeralJobRequest,
  invalidCode: 400,
};
