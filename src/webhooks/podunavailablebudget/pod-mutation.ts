/**
 * The `pub` step of the pod mutating chain (docs/design/podunavailablebudget.md §6): a new pod is
 * bound to the PUB of its namespace that targets its workload (a ReplicaSet's pods belong to the
 * Deployment), or else whose selector matches it, through both related-pub annotations. A failed
 * lookup never blocks the creation: the controller annotates pods it finds later.
 */
import type { OwnerReference } from '../../api/meta.js';
import type { Pod } from '../../api/core/index.js';
import { PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import { ReplicaSets } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { relatedPubAnnotations } from '../../control/pubcontrol/index.js';
import type { PodUnavailableBudget } from '../../control/pubcontrol/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { logger } from '../../machinery/log.js';
import { sameTarget } from '../common/target-ref.js';
import type { PodMutationStep } from '../pod/step.js';
import { PubDeleteGate, PubUpdateGate } from './pod-validation.js';

const controllerOf = (o: { metadata: { ownerReferences?: OwnerReference[] } }) => o.metadata.ownerReferences?.find((r) => r.controller);

/** The workload that owns the pod: its controller, or the Deployment above its ReplicaSet. */
async function workloadOf(client: Client, pod: Pod, namespace: string): Promise<OwnerReference | undefined> {
  const ref = controllerOf(pod);
  if (!ref || ref.kind !== 'ReplicaSet' || !ref.apiVersion.startsWith('apps/')) return ref;
  const rs = await client.get(ReplicaSets, namespace, ref.name).catch(() => undefined);
  const deployment = rs && controllerOf(rs);
  return deployment?.kind === 'Deployment' ? deployment : ref;
}

export async function pubForNewPod(client: Client, pod: Pod, namespace: string): Promise<PodUnavailableBudget | undefined> {
  const pubs = (await client.list<PodUnavailableBudget>(PodUnavailableBudgets, { namespace })).items.filter((p) => !p.metadata.deletionTimestamp);
  if (pubs.length === 0) return undefined;
  const workload = await workloadOf(client, pod, namespace);
  return pubs.find((pub) => {
    const target = pub.spec?.targetRef;
    if (target && workload) return sameTarget(target, workload);
    const selector = pub.spec?.selector as MetaLabelSelector | undefined;
    if (!selector || (!selector.matchLabels && !selector.matchExpressions?.length)) return false;
    return !target && selectorFromLabelSelector(selector).matches(pod.metadata.labels);
  });
}

export const pubMutationStep: PodMutationStep = {
  name: 'pub',
  enabled: (gate) => gate(PubDeleteGate) || gate(PubUpdateGate),
  async mutate(pod, input) {
    const namespace = pod.metadata.namespace ?? input.request.namespace ?? '';
    try {
      const pub = await pubForNewPod(input.client, pod, namespace);
      if (pub) pod.metadata.annotations = { ...pod.metadata.annotations, ...relatedPubAnnotations(pub.metadata.name!) };
    } catch (err) {
      logger('pub-webhook').warn({ err, namespace }, 'PodUnavailableBudget lookup failed; the pod is created unbound');
    }
  },
};
