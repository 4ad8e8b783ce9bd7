/**
 * Why each SidecarSet does or does not apply to a pod (docs/design/sidecarset.md §10), for
 * `kruise sidecarset explain POD`: the same checks as injection (namespaceSelector, selector,
 * injection pause, a canary shadowing its base, a container name another match already took),
 * then, for those injected, whether the pod is on the current version and can be upgraded.
 */
import type { Pod } from '../../api/core/index.js';
import { SidecarSetBaseAnnotation, SidecarSetCanaryAnnotation, SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../api/kruise/ops/sidecarset.js';
import { sidecarSetMiss, type SidecarSet } from './match.js';
import { injectedSidecarSets, podSidecarSetHash } from './upgrade-spec.js';

export interface Explanation { name: string; matches: boolean; injected: boolean; detail: string }

const json = (v: unknown) => JSON.stringify(v ?? {});

function versionDetail(set: SidecarSet, pod: Pod): string {
  const name = set.metadata.name!;
  const a = set.metadata.annotations ?? {};
  if (podSidecarSetHash(pod, name) === a[SidecarSetHashAnnotation]) return 'on the current version';
  const strategy = set.spec?.updateStrategy;
  const inPlace = podSidecarSetHash(pod, name, true) === a[SidecarSetHashWithoutImageAnnotation];
  if (!inPlace) return 'outdated: a change other than an image cannot be applied in place (recreate the pod)';
  if (strategy?.type === 'NotUpdate') return 'outdated: updateStrategy.type is NotUpdate';
  if (strategy?.paused) return 'outdated: updateStrategy.paused';
  return 'outdated: waiting for the rolling update (partition, maxUnavailable, updateStrategy.selector)';
}

export function explainSidecarSets(sets: SidecarSet[], pod: Pod, namespaceLabels: Record<string, string> | undefined): Explanation[] {
  const injected = new Set(injectedSidecarSets(pod));
  const selecting = sets.filter((s) => !s.spec?.injectionStrategy?.paused && sidecarSetMiss(s, pod, namespaceLabels) === undefined);
  const shadowedBy = new Map(selecting.filter((s) => s.metadata.annotations?.[SidecarSetCanaryAnnotation] === 'true')
    .map((s) => [s.metadata.annotations?.[SidecarSetBaseAnnotation] ?? '', s.metadata.name!]));
  const owner = new Map<string, string>();
  const out: Explanation[] = [];
  for (const set of [...sets].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1))) {
    const name = set.metadata.name!;
    const base = { name, injected: injected.has(name) };
    const miss = sidecarSetMiss(set, pod, namespaceLabels);
    if (miss === 'namespace') out.push({ ...base, matches: false, detail: `namespaceSelector ${json(set.spec?.namespaceSelector)} does not select namespace ${pod.metadata.namespace}` });
    else if (miss === 'selector') out.push({ ...base, matches: false, detail: `selector ${json(set.spec?.selector)} does not match pod labels ${json(pod.metadata.labels)}` });
    else if (set.spec?.injectionStrategy?.paused) out.push({ ...base, matches: false, detail: 'injectionStrategy.paused: new pods get no sidecar' });
    else if (shadowedBy.has(name)) out.push({ ...base, matches: false, detail: `shadowed by canary SidecarSet ${shadowedBy.get(name)}` });
    else {
      const clash = (set.spec?.containers ?? []).map((c) => c.name).find((c) => owner.has(c));
      for (const c of set.spec?.containers ?? []) if (!owner.has(c.name)) owner.set(c.name, name);
      const conflict = clash ? `; container ${clash} is also injected by ${owner.get(clash)}` : '';
      out.push({ ...base, matches: true, detail: (base.injected ? versionDetail(set, pod) : 'selects the pod, but it was created before the SidecarSet (injection happens only at pod creation)') + conflict });
    }
  }
  return out;
}
