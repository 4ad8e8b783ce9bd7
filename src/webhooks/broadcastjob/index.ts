/** BroadcastJob admission: defaulting and validation on the hub (v1beta1). */
import type { KindWebhooks } from '../kind-webhook.js';
import { defaultBroadcastJobRequest } from './defaulting.js';
import { validateBroadcastJobRequest } from './validation.js';

export { validateBroadcastJob, validateBroadcastJobSpec } from './validation.js';

/**
 * Upstream answers a BroadcastJob validation failure with HTTP 500 (an aggregate error passed to
 * admission.Errored); we answer 422 like the other Kruise validators.
 */
export const broadcastJobWebhooks: KindWebhooks = {
  default: defaultBroadcastJobRequest,
  validate: validateBroadcastJobRequest,
  invalidCode: 422,
};
