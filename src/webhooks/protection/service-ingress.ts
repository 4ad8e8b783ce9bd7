/**
 * Deletion protection of Services and Ingresses (docs/design/webhooks.md §12): only `Always` is honoured,
 * and a denial is neither counted nor written to the protection log.
 */
import { DeletionProtection } from '../../api/kruise/workloads/labels.js';
import { AdmissionDenied, type KindWebhooks } from '../kind-webhook.js';
import { messages, protectedObject, protectionValue } from './rules.js';

const alwaysOnly: KindWebhooks = {
  validate(input) {
    const obj = protectedObject(input);
    if (obj && protectionValue(obj) === DeletionProtection.Always) throw new AdmissionDenied(403, messages.always());
    return [];
  },
};

export const serviceProtectionWebhooks: KindWebhooks = alwaysOnly;
export const ingressProtectionWebhooks: KindWebhooks = alwaysOnly;
