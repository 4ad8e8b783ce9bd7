/**
 * A pod with everything the scheduler derives from it computed once: requests, host ports, the
 * controller owner, and its pod (anti-)affinity terms with compiled selectors. Cached per pod
 * object, so a pod seen in many cycles or on many nodes is parsed once.
 */
import { objectKey } from '../../api/meta.js';
import { everything, nothing, selectorFromLabelSelector, type LabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { podHostPorts, type HostPort } from './host-ports.js';
import { podRequests, type Resources } from './resources.js';
import type { Pod, PodAffinityTerm } from '../../api/core/index.js';

/** Namespace name -> labels, for terms with a namespaceSelector. */
export type NamespaceLabels = (namespace: string) => Record<string, string> | undefined;

export interface AffinityTerm {
  selector: LabelSelector;
  /** Namespaces listed by name (the pod's own when neither names nor a selector are given). */
  namespaces: ReadonlySet<string>;
  namespaceSelector?: LabelSelector;
  topologyKey: string;
  weight: number;
}

export interface PodInfo {
  key: string;
  pod: Pod;
  namespace: string;
  labels: Record<string, string>;
  requests: Resources;
  /** Requests with scoring defaults for containers that ask for no cpu or memory. */
  nonZero: Resources;
  ports: HostPort[];
  ownerUid?: string;
  requiredAffinity: AffinityTerm[];
  requiredAntiAffinity: AffinityTerm[];
  preferredAffinity: AffinityTerm[];
  preferredAntiAffinity: AffinityTerm[];
}

function safeSelector(sel: MetaLabelSelector | null | undefined): LabelSelector {
  try {
    return selectorFromLabelSelector(sel);
  } catch {
    return nothing(); // invalid selectors were rejected by validation; never let one match everything
  }
}

/** A label selector with `matchLabelKeys` (In the pod's value) and `mismatchLabelKeys` (NotIn) merged in. */
export function selectorWithLabelKeys(sel: MetaLabelSelector | null | undefined, labels: Record<string, string>, match: string[] = [], mismatch: string[] = []): LabelSelector {
  if (!sel || match.length + mismatch.length === 0) return safeSelector(sel);
  const extra = [
    ...match.filter((k) => k in labels).map((key) => ({ key, operator: 'In' as const, values: [labels[key]] })),
    ...mismatch.filter((k) => k in labels).map((key) => ({ key, operator: 'NotIn' as const, values: [labels[key]] })),
  ];
  return safeSelector({ ...sel, matchExpressions: [...(sel.matchExpressions ?? []), ...extra] });
}

function compileTerm(term: PodAffinityTerm, pod: Pod, weight: number): AffinityTerm {
  const namespace = pod.metadata.namespace ?? '';
  const labels = pod.metadata.labels ?? {};
  const names = term.namespaces ?? [];
  const nsSel = term.namespaceSelector;
  return {
    selector: selectorWithLabelKeys(term.labelSelector, labels, term.matchLabelKeys, term.mismatchLabelKeys),
    namespaces: new Set(names.length === 0 && !nsSel ? [namespace] : names),
    namespaceSelector: nsSel ? (Object.keys(nsSel).length === 0 ? everything() : safeSelector(nsSel)) : undefined,
    topologyKey: term.topologyKey,
    weight,
  };
}

/** Whether `term` (of some pod) selects pod `other`. */
export function termMatches(term: AffinityTerm, other: PodInfo, nsLabels: NamespaceLabels): boolean {
  if (!term.namespaces.has(other.namespace)) {
    if (!term.namespaceSelector || !term.namespaceSelector.matches(nsLabels(other.namespace))) return false;
  }
  return term.selector.matches(other.labels);
}

const cache = new WeakMap<Pod, PodInfo>();

/**
 * The same derived data for another object of the same pod (the assumed copy, or the informer's
 * bound copy of a pod just assumed): only the object and its labels are taken from `pod`. A pod's
 * requests, ports and affinity do not change when it is bound, so nothing is parsed again.
 */
export function rebind(info: PodInfo, pod: Pod): PodInfo {
  const hit = cache.get(pod);
  if (hit) return hit;
  const out: PodInfo = {
    key: info.key, pod, namespace: info.namespace, labels: pod.metadata.labels ?? {},
    requests: info.requests, nonZero: info.nonZero, ports: info.ports, ownerUid: info.ownerUid,
    requiredAffinity: info.requiredAffinity, requiredAntiAffinity: info.requiredAntiAffinity,
    preferredAffinity: info.preferredAffinity, preferredAntiAffinity: info.preferredAntiAffinity,
  };
  cache.set(pod, out);
  return out;
}

export function podInfo(pod: Pod): PodInfo {
  const hit = cache.get(pod);
  if (hit) return hit;
  const spec = pod.spec;
  const aff = spec?.affinity?.podAffinity;
  const anti = spec?.affinity?.podAntiAffinity;
  const info: PodInfo = {
    key: objectKey(pod),
    pod,
    namespace: pod.metadata.namespace ?? '',
    labels: pod.metadata.labels ?? {},
    requests: podRequests(spec),
    nonZero: podRequests(spec, true),
    ports: podHostPorts(spec),
    ownerUid: pod.metadata.ownerReferences?.find((o) => o.controller)?.uid,
    requiredAffinity: (aff?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => compileTerm(t, pod, 1)),
    requiredAntiAffinity: (anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => compileTerm(t, pod, 1)),
    preferredAffinity: (aff?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => compileTerm(w.podAffinityTerm, pod, w.weight)),
    preferredAntiAffinity: (anti?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => compileTerm(w.podAffinityTerm, pod, w.weight)),
  };
  cache.set(pod, info);
  return info;
}

export const hasPodAffinity = (p: PodInfo): boolean =>
  p.requiredAffinity.length + p.requiredAntiAffinity.length + p.preferredAffinity.length + p.preferredAntiAffinity.length > 0;
