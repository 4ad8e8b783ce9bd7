/**
 * NodeImage admission (mnodeimage / vnodeimage): every tag gets createdAt (now) and the default
 * pull policy; validation behind KruiseDaemon (403 when off), field errors deny with 400 as
 * upstream does.
 */
import type { KObject } from '../../api/meta.js';
import { defaultNodeImage } from '../../api/kruise/ops/defaults.js';
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from '../kind-webhook.js';
import { validateNodeImage } from './validation.js';
import { rfc3339 } from '../../machinery/time.js';

export { MaxImagesPerNode, validateNodeImage } from './validation.js';

export interface NodeImageWebhookOptions {
  /** Clock for createdAt (tests inject a fixed one). */
  now?: () => Date;
}

function objectOf(input: AdmissionInput): NodeImage {
  if (!input.object) throw new Error(`NodeImage admission without an object (${input.request.operation})`);
  return input.object as NodeImage;
}

export function createNodeImageWebhooks(options: NodeImageWebhookOptions = {}): KindWebhooks {
  const now = options.now ?? (() => new Date());
  return {
    default(input: AdmissionInput): KObject {
      return defaultNodeImage(objectOf(input), rfc3339(now())) as KObject;
    },
    validate(input: AdmissionInput) {
      if (!input.gate('KruiseDaemon')) throw new AdmissionDenied(403, 'feature-gate KruiseDaemon is not enabled');
      return validateNodeImage(objectOf(input));
    },
    invalidCode: 400,
  };
}

export const nodeImageWebhooks: KindWebhooks = createNodeImageWebhooks();
