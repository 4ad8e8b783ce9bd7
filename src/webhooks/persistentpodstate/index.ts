/**
 * PersistentPodState admission (vpersistentpodstate, validating only, no gate): target kind
 * (StatefulSet or whitelisted), some topology, immutable targetRef, one PPS per workload. Field
 * errors deny with 400, as upstream does.
 */
import { PersistentPodStates } from '../../api/kruise/resource-types.js';
import type { PersistentPodState } from '../../api/kruise/ops/persistentpodstate.js';
import type { FieldError } from '../../machinery/errors.js';
import { checkNamespacePeers } from '../common/namespace-peers.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { validatePpsConflicts, validatePpsSpec, validatePpsUpdate } from './validation.js';
import { readPPSWhiteList, type WorkloadKind } from './whitelist.js';

export { validatePpsConflicts, validatePpsSpec, validatePpsUpdate } from './validation.js';
export { isSupportedTarget, KruiseConfigurationName, PPSWatchCustomWorkloadWhiteList, readPPSWhiteList, type WorkloadKind } from './whitelist.js';


export interface PersistentPodStateWebhookOptions {
  /** Namespace of the `kruise-configuration` ConfigMap (the manager's own namespace). */
  kruiseNamespace?: string;
}

const internal = (detail: string): FieldError => ({ type: 'InternalError', field: '', detail });

export function createPersistentPodStateWebhooks(options: PersistentPodStateWebhookOptions = {}): KindWebhooks {
  const kruiseNamespace = options.kruiseNamespace ?? 'kruise-system';
  async function validate(input: AdmissionInput): Promise<FieldError[]> {
    const pps = input.object as PersistentPodState | undefined;
    if (!pps) throw new Error(`PersistentPodState admission without an object (${input.request.operation})`);
    let whiteList: WorkloadKind[];
    try {
      whiteList = await readPPSWhiteList(input.client, kruiseNamespace);
    } catch (e) {
      return [internal(`failed to get persistent pod state config white list, error: ${(e as Error).message}`)];
    }
    const errs = validatePpsSpec(pps, whiteList);
    if (input.request.operation === 'UPDATE' && input.oldObject) errs.push(...validatePpsUpdate(pps, input.oldObject as PersistentPodState));
    const conflicts = await checkNamespacePeers(input, PersistentPodStates, pps,
      (others: PersistentPodState[]) => validatePpsConflicts(pps, others), 'query other PersistentPodState failed');
    return [...errs, ...conflicts];
  }
  return { validate, invalidCode: 400 };
}

export const persistentPodStateWebhooks: KindWebhooks = createPersistentPodStateWebhooks();
