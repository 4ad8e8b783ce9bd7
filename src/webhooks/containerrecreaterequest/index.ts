/** ContainerRecreateRequest admission: mutating only (no validating webhook upstream). */
import type { KindWebhooks } from '../kind-webhook.js';
import { defaultContainerRecreateRequestAdmission } from './mutating.js';

export const containerRecreateRequestWebhooks: KindWebhooks = {
  default: defaultContainerRecreateRequestAdmission,
};
