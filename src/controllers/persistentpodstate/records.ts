/**
 * The per-pod records of a PersistentPodState (docs/design/persistentpodstate.md §3): what is
 * remembered of a Ready pod's node, when a record must be refreshed, and which ordinals a
 * StatefulSet still uses (records of others are dropped under retention WhenScaled).
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject, ObjectMeta } from '../../api/meta.js';
import type { PersistentPodState } from '../../api/kruise/ops/persistentpodstate.js';

export type PpsObject = PersistentPodState & { metadata: ObjectMeta };
export type PodRecord = NonNullable<NonNullable<PersistentPodState['status']>['podStates']>[string];
export type StatefulWorkload = KObject & { spec?: { replicas?: number; reserveOrdinals?: Array<number | string> } };

/** Required keys, then preferred keys, each once. */
export function topologyKeys(pps: PpsObject): string[] {
  const keys = [...(pps.spec?.requiredPersistentTopology?.keys ?? []), ...(pps.spec?.preferredPersistentTopology ?? []).flatMap((p) => p.preference?.keys ?? [])];
  return [...new Set(keys)];
}

export function recordOf(pps: PpsObject, pod: Pod, node: KObject): PodRecord {
  const labels = node.metadata.labels ?? {};
  const nodeTopologyLabels = Object.fromEntries(topologyKeys(pps).filter((k) => k in labels).map((k) => [k, labels[k]]));
  const wanted = (pps.spec?.persistentPodAnnotations ?? []).map((a) => a.key);
  const podAnnotations = pod.metadata.annotations ?? {};
  const annotations = Object.fromEntries(wanted.filter((k) => k in podAnnotations).map((k) => [k, podAnnotations[k]]));
  return { nodeName: pod.spec.nodeName, nodeTopologyLabels, ...(Object.keys(annotations).length > 0 && { annotations }) };
}

/** A record is refreshed when missing, on another node, or holding another key set. */
export function isStale(pps: PpsObject, pod: Pod, record: PodRecord | undefined, node: KObject): boolean {
  if (!record || record.nodeName !== pod.spec.nodeName) return true;
  const labels = node.metadata.labels ?? {};
  const want = topologyKeys(pps).filter((k) => k in labels).sort();
  const have = Object.keys(record.nodeTopologyLabels ?? {}).sort();
  return want.join('\n') !== have.join('\n');
}

/** The ordinals the workload keeps: the first `replicas` ordinals from 0 that are not reserved. */
export function liveOrdinals(w: StatefulWorkload): Set<number> {
  const reserved = new Set<number>();
  for (const r of w.spec?.reserveOrdinals ?? []) {
    if (typeof r === 'number') reserved.add(r);
    const m = typeof r === 'string' ? /^(\d+)-(\d+)$/.exec(r) : null;
    if (m) for (let i = Number(m[1]); i <= Number(m[2]); i++) reserved.add(i);
  }
  const live = new Set<number>();
  for (let i = 0; live.size < (w.spec?.replicas ?? 1); i++) if (!reserved.has(i)) live.add(i);
  return live;
}

/** The ordinal after the last `-` of a pod name, or undefined. */
export function ordinalOf(podName: string): number | undefined {
  const tail = podName.slice(podName.lastIndexOf('-') + 1);
  return /^\d+$/.test(tail) ? Number(tail) : undefined;
}
