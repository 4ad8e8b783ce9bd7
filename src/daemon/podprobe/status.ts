/**
 * The NodePodProbe status the daemon writes (docs/design/pod-probes.md §5): the states already there
 * whose `<pod uid>/<probe>` is still in the spec, with the workers' latest results laid over them;
 * lastTransitionTime moves only when a state changes; messages are cut to 1024 characters.
 */
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { rfc3339 } from '../../machinery/time.js';
import { resultKey, type ProbeResult } from './results.js';

export type NodePodProbeStatus = NonNullable<NodePodProbe['status']>;
type PodProbeStatus = NonNullable<NodePodProbeStatus['podProbeStatuses']>[number];

export const maxMessageLength = 1024;

export function specProbeKeys(npp: NodePodProbe): Set<string> {
  const keys = new Set<string>();
  for (const pod of npp.spec?.podProbes ?? []) for (const p of pod.probes ?? []) keys.add(resultKey(pod.uid, p.name));
  return keys;
}

export function nextStatus(npp: NodePodProbe, results: ProbeResult[], now: number): NodePodProbeStatus {
  const valid = specProbeKeys(npp);
  const pods: PodProbeStatus[] = [];
  for (const pod of npp.status?.podProbeStatuses ?? []) {
    const probeStates = (pod.probeStates ?? []).filter((s) => valid.has(resultKey(pod.uid, s.name))).map((s) => ({ ...s }));
    if (probeStates.length > 0) pods.push({ ...pod, probeStates });
  }
  for (const r of results) {
    const { target } = r;
    if (!valid.has(resultKey(target.podUid, target.probeName))) continue;
    let pod = pods.find((p) => p.uid === target.podUid);
    if (!pod) pods.push(pod = { name: target.podName, namespace: target.podNamespace, uid: target.podUid, probeStates: [] });
    const states = (pod.probeStates ??= []);
    const i = states.findIndex((s) => s.name === target.probeName);
    const old = i < 0 ? undefined : states[i];
    const next = {
      name: target.probeName, state: r.state, message: r.message.slice(0, maxMessageLength), lastProbeTime: rfc3339(r.probedAt),
      lastTransitionTime: old && old.state === r.state && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(now),
    };
    if (i < 0) states.push(next);
    else states[i] = next;
  }
  return pods.length > 0 ? { podProbeStatuses: pods } : {};
}
