/**
 * The `persistentpodstate` step of the pod mutating chain (docs/design/persistentpodstate.md §2):
 * a new pod of a StatefulSet whose PersistentPodState remembers the topology of its name gets the
 * required keys as nodeSelector entries and one weighted preferred node-affinity term per
 * preferred entry, so it comes back to its zone or node.
 */
import type { Pod } from '../../api/core/index.js';
import { InjectedPersistentPodStateAnnotation, type PersistentPodState } from '../../api/kruise/ops/persistentpodstate.js';
import { PersistentPodStates } from '../../api/kruise/resource-types.js';
import { logger } from '../../machinery/log.js';
import { sameTarget } from '../common/target-ref.js';
import type { PodMutationStep } from '../pod/step.js';

type Term = { weight: number; preference: { matchExpressions: Array<{ key: string; operator: 'In'; values: string[] }> } };

/** Changes the pod in place; returns whether anything was injected. */
export function injectPersistentTopology(pod: Pod, pps: PersistentPodState & { metadata: { name?: string } }): boolean {
  const record = pps.status?.podStates?.[pod.metadata.name ?? ''];
  const labels = record?.nodeTopologyLabels ?? {};
  if (Object.keys(labels).length === 0) return false;
  const required = (pps.spec?.requiredPersistentTopology?.keys ?? []).filter((k) => k in labels);
  const preferred: Term[] = (pps.spec?.preferredPersistentTopology ?? []).map((p) => ({
    weight: p.weight,
    preference: { matchExpressions: (p.preference?.keys ?? []).filter((k) => k in labels).map((key) => ({ key, operator: 'In' as const, values: [labels[key]] })) },
  })).filter((t) => t.preference.matchExpressions.length > 0);
  if (required.length === 0 && preferred.length === 0) return false;
  if (required.length > 0) pod.spec.nodeSelector = { ...pod.spec.nodeSelector, ...Object.fromEntries(required.map((k) => [k, labels[k]])) };
  if (preferred.length > 0) {
    const affinity = (pod.spec.affinity ??= {});
    const nodeAffinity = (affinity.nodeAffinity ??= {});
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [...(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []), ...preferred];
  }
  pod.metadata.annotations = { ...pod.metadata.annotations, [InjectedPersistentPodStateAnnotation]: pps.metadata.name! };
  return true;
}

export const persistentPodStateStep: PodMutationStep = {
  name: 'persistentpodstate',
  enabled: () => true,
  async mutate(pod, input) {
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
    if (!owner || owner.kind !== 'StatefulSet' || !pod.metadata.name) return;
    const namespace = pod.metadata.namespace ?? input.request.namespace ?? '';
    try {
      const ppss = (await input.client.list<PersistentPodState & { metadata: { name?: string } }>(PersistentPodStates, { namespace })).items;
      const pps = ppss.find((p) => !p.metadata.deletionTimestamp && p.spec?.targetRef && sameTarget(p.spec.targetRef, owner));
      if (pps) injectPersistentTopology(pod, pps);
    } catch (err) {
      logger('pps-webhook').warn({ err, namespace }, 'PersistentPodState lookup failed; the pod is created without persistent topology');
    }
  },
};
