/** PodProbeMarker admission (v1alpha1 only): validating only. */
import type { KindWebhooks } from '../kind-webhook.js';
import { validatePodProbeMarkerRequest } from './validation.js';

export { validatePodProbeMarker } from './validation.js';

export const podProbeMarkerWebhooks: KindWebhooks = {
  validate: validatePodProbeMarkerRequest,
  invalidCode: 400,
};
