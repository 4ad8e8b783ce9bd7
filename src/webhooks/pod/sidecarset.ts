/**
 * Pod mutation step `sidecarset` (docs/design/sidecarset.md §2): a new pod gets the sidecars of
 * every SidecarSet that selects it and is not injection-paused. A canary SidecarSet shadows its
 * base. A SidecarSet whose injectionStrategy.revision names a ControllerRevision injects that
 * version; failing to find it refuses the pod, as upstream does (a half-injected pod is worse).
 */
import type { Namespace, Pod } from '../../api/core/index.js';
import {
  SidecarSetBaseAnnotation, SidecarSetCanaryAnnotation, SidecarSetCustomVersionLabel, SidecarSetNameLabel,
} from '../../api/kruise/ops/sidecarset.js';
import { SidecarSets } from '../../api/kruise/resource-types.js';
import type { ControllerRevision } from '../../api/core/index.js';
import { ControllerRevisions, Namespaces } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import {
  currentChoice, injectSidecars, needsNamespaceLabels, restoreRevision, sidecarSetSelects, useHistoricalRevision, type InjectionChoice,
} from '../../control/sidecarcontrol/index.js';
import { isNotFound } from '../../machinery/errors.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import { AdmissionDenied } from '../kind-webhook.js';
import type { PodMutationStep } from './step.js';

const kruiseNamespace = (): string => process.env.POD_NAMESPACE || 'kruise-system';
const ignoredNamespaces = new Set(['kube-system', 'kube-public']);

async function namespaceLabels(client: Client, name: string): Promise<Record<string, string> | undefined> {
  try {
    return (await client.get<Namespace>(Namespaces, undefined, name)).metadata.labels ?? {};
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function historicalRevision(client: Client, set: SidecarSet): Promise<ControllerRevision> {
  const revision = set.spec?.injectionStrategy?.revision;
  if (revision?.revisionName) return client.get<ControllerRevision>(ControllerRevisions, kruiseNamespace(), revision.revisionName);
  const labelSelector = `${SidecarSetNameLabel}=${set.metadata.name},${SidecarSetCustomVersionLabel}=${revision?.customVersion}`;
  const list = (await client.list<ControllerRevision>(ControllerRevisions, { namespace: kruiseNamespace(), labelSelector })).items;
  const newest = list.sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0];
  if (!newest) throw new Error(`no ControllerRevision of sidecarSet ${set.metadata.name} with customVersion ${revision?.customVersion}`);
  return newest;
}

async function choose(client: Client, set: SidecarSet, pod: Pod): Promise<InjectionChoice> {
  const revision = set.spec?.injectionStrategy?.revision;
  if (!revision?.revisionName && !revision?.customVersion) return currentChoice(set);
  if (!useHistoricalRevision(set, pod, Math.random)) return currentChoice(set);
  try {
    return restoreRevision(set, await historicalRevision(client, set));
  } catch (e) {
    throw new AdmissionDenied(500, `failed to get sidecarSet(${set.metadata.name}) specific revision: ${(e as Error).message}`);
  }
}

/** The SidecarSets injected into `pod`, canary bases dropped. */
export async function matchingSidecarSets(client: Client, pod: Pod): Promise<SidecarSet[]> {
  const sets = (await client.list<SidecarSet>(SidecarSets)).items.filter((s) => !s.spec?.injectionStrategy?.paused);
  const ns = pod.metadata.namespace ?? 'default';
  const labels = sets.some(needsNamespaceLabels) ? await namespaceLabels(client, ns) : {};
  const matched = sets.filter((s) => sidecarSetSelects(s, pod, labels));
  const shadowed = new Set(matched.filter((s) => s.metadata.annotations?.[SidecarSetCanaryAnnotation] === 'true')
    .map((s) => s.metadata.annotations?.[SidecarSetBaseAnnotation]).filter(Boolean));
  return matched.filter((s) => !shadowed.has(s.metadata.name));
}

export const sidecarSetStep: PodMutationStep = {
  name: 'sidecarset',
  enabled: () => true,
  async mutate(pod, input) {
    if (pod.metadata.deletionTimestamp || ignoredNamespaces.has(pod.metadata.namespace ?? '')) return;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    const matched = await matchingSidecarSets(input.client, pod);
    if (matched.length === 0) return;
    const choices = await Promise.all(matched.map((s) => choose(input.client, s, pod)));
    injectSidecars(pod, choices, { now: Date.now(), sortByName: input.gate('EnableSortSidecarContainerByName') });
  },
};
