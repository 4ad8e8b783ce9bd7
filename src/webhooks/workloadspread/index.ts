/**
 * Admission logic of WorkloadSpread (`vworkloadspread.kb.io`, CREATE/UPDATE): validation only,
 * denied with 400; 403 while feature gate WorkloadSpread is off.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from '../kind-webhook.js';
import { validateMetaUpdate } from '../common/meta.js';
import { validateTargetRefUpdate, validateWorkloadSpread } from './validation.js';

import { WorkloadSpreadGate } from './gate.js';

export { WorkloadSpreadGate };

export interface WorkloadSpreadWebhookOptions {
  /** Namespace of the `kruise-configuration` ConfigMap (the manager's namespace). */
  kruiseNamespace?: string;
}

export function createWorkloadSpreadWebhooks(options: WorkloadSpreadWebhookOptions = {}): KindWebhooks {
  const kruiseNamespace = options.kruiseNamespace ?? 'kruise-system';
  async function validate(input: AdmissionInput): Promise<FieldError[]> {
    const obj = input.object;
    if (input.request.operation === 'DELETE' || !obj) return [];
    if (!input.gate(WorkloadSpreadGate)) throw new AdmissionDenied(403, `feature-gate ${WorkloadSpreadGate} is not enabled`);
    const errs = await validateWorkloadSpread(obj, { client: input.client, version: input.version, kruiseNamespace });
    const old: KObject | undefined = input.request.operation === 'UPDATE' ? input.oldObject : undefined;
    if (old) errs.push(...validateMetaUpdate(obj, old), ...validateTargetRefUpdate(obj, old));
    return errs;
  }
  return { validate, invalidCode: 400 };
}

export const workloadSpreadWebhooks: KindWebhooks = createWorkloadSpreadWebhooks();
