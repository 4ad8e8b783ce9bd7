/** SidecarSet admission: defaulting (with the hash annotations) and validation on the hub (v1beta1). */
import type { KindWebhooks } from '../kind-webhook.js';
import { defaultSidecarSetRequest } from './defaulting.js';
import { sidecarSetValidator, type SidecarSetWebhookOptions } from './validating.js';

export { defaultSidecarSetObject } from './defaulting.js';
export { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
export { selectorsOverlap } from './selector-overlap.js';
export { resourceExpressionError } from './resource-expr.js';
export type { SidecarSetWebhookOptions } from './validating.js';

/**
 * Upstream answers a SidecarSet validation failure with HTTP 500 (an aggregate error passed to
 * admission.Errored); we answer 422 like the other Kruise validators.
 */
export function createSidecarSetWebhooks(options: SidecarSetWebhookOptions = {}): KindWebhooks {
  return { default: defaultSidecarSetRequest, validate: sidecarSetValidator(options), invalidCode: 422 };
}

/** With the Kruise namespace `kruise-system`. */
export const sidecarSetWebhooks: KindWebhooks = createSidecarSetWebhooks();
