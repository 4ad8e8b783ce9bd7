/** AdvancedCronJob admission: defaulting and validation on the hub (v1beta1). */
import type { KindWebhooks } from '../kind-webhook.js';
import { defaultAdvancedCronJobRequest } from './defaulting.js';
import { validateAdvancedCronJobRequest } from './validation.js';

export { validateAdvancedCronJob, validateAdvancedCronJobUpdate } from './validation.js';

export const advancedCronJobWebhooks: KindWebhooks = {
  default: defaultAdvancedCronJobRequest,
  validate: validateAdvancedCronJobRequest,
  invalidCode: 422,
};
