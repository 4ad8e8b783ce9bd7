/**
 * What a pod's probe states make of the pod (docs/design/pod-probes.md §3): for each state with a
 * probe of a live PodProbeMarker, the probe's `podConditionType` condition (True when Succeeded,
 * else False; probe and transition times and message copied; the first probe of a condition type
 * wins), and the labels and annotations of the marker policy whose state matches, the keys of every
 * other policy of that probe removed. Pure: returns the changed copy, or undefined.
 */
import type { Pod, PodCondition } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { NodePodProbeNameSeparator } from '../../api/kruise/ops/nodepodprobe.js';
import { deepEqual } from '../../machinery/deep-equal.js';

export type PodProbeStatus = NonNullable<NonNullable<NodePodProbe['status']>['podProbeStatuses']>[number];
export type MarkerProbe = NonNullable<PodProbeMarker['spec']>['probes'][number];

/** The probe `<marker>#<probe>` of a live marker in the pod's namespace, if any. */
export type ProbeLookup = (namespace: string, markerName: string, probeName: string) => MarkerProbe | undefined;

/** Upstream's SetPodConditionIfMsgChanged: replace only when the status or the message differs. */
function setCondition(conditions: PodCondition[], next: PodCondition): void {
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) conditions.push(next);
  else if (conditions[i].status !== next.status || (conditions[i].message ?? '') !== (next.message ?? '')) conditions[i] = next;
}

export function markedPod(pod: Pod, status: PodProbeStatus, lookup: ProbeLookup): Pod | undefined {
  const labels: Record<string, string | null> = {};
  const annotations: Record<string, string | null> = {};
  const conditions: PodCondition[] = [];
  const conditionTypes = new Set<string>();
  for (const state of status.probeStates ?? []) {
    if (!state.state) continue;
    const [markerName, probeName] = state.name.split(NodePodProbeNameSeparator);
    const probe = lookup(pod.metadata.namespace ?? '', markerName, probeName ?? '');
    if (!probe) continue;
    const type = probe.podConditionType;
    if (type && !conditionTypes.has(type)) {
      conditionTypes.add(type);
      conditions.push({
        type, status: state.state === 'Succeeded' ? 'True' : 'False',
        lastProbeTime: state.lastProbeTime ?? null, lastTransitionTime: state.lastTransitionTime, message: state.message,
      });
    }
    const policies = probe.markerPolicy ?? [];
    for (const p of policies.filter((p) => p.state !== state.state)) {
      for (const k of Object.keys(p.labels ?? {})) labels[k] = null;
      for (const k of Object.keys(p.annotations ?? {})) annotations[k] = null;
    }
    for (const p of policies.filter((p) => p.state === state.state)) {
      Object.assign(labels, p.labels);
      Object.assign(annotations, p.annotations);
    }
  }
  return applyMarks(pod, conditions, labels, annotations);
}

function applyMarks(pod: Pod, conditions: PodCondition[], labels: Record<string, string | null>, annotations: Record<string, string | null>): Pod | undefined {
  const next = structuredClone(pod);
  const nextConditions = (next.status ??= {}).conditions ??= [];
  for (const c of conditions) setCondition(nextConditions, c);
  const apply = (target: Record<string, string>, marks: Record<string, string | null>) => {
    for (const [k, v] of Object.entries(marks)) {
      if (v === null) delete target[k];
      else target[k] = v;
    }
  };
  apply((next.metadata.labels ??= {}), labels);
  apply((next.metadata.annotations ??= {}), annotations);
  const same = deepEqual(next.status.conditions, pod.status?.conditions ?? []) && deepEqual(next.metadata.labels, pod.metadata.labels ?? {})
    && deepEqual(next.metadata.annotations, pod.metadata.annotations ?? {});
  return same ? undefined : next;
}
