/**
 * When a mutating webhook injects pod-template defaults (docs/design/webhooks.md §7): on CREATE, and on
 * UPDATE only when the template changed, unless feature gate TemplateNoDefaults is on. Defaulting an
 * unchanged template would change revision hashes of running workloads after an upgrade.
 */
import type { AdmissionInput } from '../kind-webhook.js';
import { deepEqual } from '../../machinery/deep-equal.js';

export const TemplateNoDefaultsGate = 'TemplateNoDefaults';

/** `pick` selects the template-bearing part of the object (e.g. `spec.template`). */
export function wantsTemplateDefaults(input: AdmissionInput, pick: (obj: unknown) => unknown): boolean {
  if (input.gate(TemplateNoDefaultsGate)) return false;
  if (input.request.operation === 'CREATE') return true;
  if (input.request.operation !== 'UPDATE') return false;
  return !deepEqual(pick(input.object), pick(input.oldObject));
}
