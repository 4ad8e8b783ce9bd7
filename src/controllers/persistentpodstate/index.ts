/**
 * Registration of persistentpodstate-controller (always on): woken by its PPSs; by pods of their
 * StatefulSets that become Ready, start deleting or go; by StatefulSets (apps and apps.kruise.io)
 * whose generation annotations change or which start deleting. docs/design/persistentpodstate.md §5.
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import {
  AutoGeneratePersistentPodStateAnnotation, InjectedPersistentPodStateAnnotation, PersistentPodAnnotationsAnnotation,
  PreferredPersistentTopologyAnnotation, RequiredPersistentTopologyAnnotation,
} from '../../api/kruise/ops/persistentpodstate.js';
import { AdvancedStatefulSets, PersistentPodStates } from '../../api/kruise/resource-types.js';
import { Nodes, Pods, StatefulSets } from '../../api/resource-type.js';
import { isPodReady } from '../../control/podutil/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper, Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { generateKey } from './generate.js';
import type { PpsObject, StatefulWorkload } from './records.js';
import { PersistentPodStateReconciler } from './reconcile.js';

export const persistentPodStateControllerName = 'persistentpodstate-controller';

interface Caches { ppss: PpsObject; pods: Pod; nodes: KObject; statefulSets: StatefulWorkload; advancedStatefulSets: StatefulWorkload }

const keyOf = (p: PpsObject): Request => ({ namespace: p.metadata.namespace, name: p.metadata.name! });
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/** The PPS a pod was injected by, else those targeting the pod's StatefulSet. */
function ppsOfPod(ppss: Informer<PpsObject>, pod: Pod): Request[] {
  const injected = pod.metadata.annotations?.[InjectedPersistentPodStateAnnotation];
  if (injected) return [{ namespace: pod.metadata.namespace, name: injected }];
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'StatefulSet');
  if (!owner) return [];
  return ppss.byIndex('namespace', pod.metadata.namespace!).filter((p) => p.spec?.targetRef?.kind === 'StatefulSet'
    && p.spec.targetRef.name === owner.name && groupOf(p.spec.targetRef.apiVersion) === groupOf(owner.apiVersion)).map(keyOf);
}

function podMapper(ppss: Informer<PpsObject>): EventMapper<Pod> {
  return {
    onAdd: (pod) => (isPodReady(pod) ? ppsOfPod(ppss, pod) : []),
    onDelete: (pod) => ppsOfPod(ppss, pod),
    onUpdate: (old, pod) => ((isPodReady(pod) && !isPodReady(old)) || (!!pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp)
      || old.spec.nodeName !== pod.spec.nodeName ? ppsOfPod(ppss, pod) : []),
  };
}

const generationAnnotations = [AutoGeneratePersistentPodStateAnnotation, RequiredPersistentTopologyAnnotation, PreferredPersistentTopologyAnnotation, PersistentPodAnnotationsAnnotation];

function workloadMapper(ppss: Informer<PpsObject>, group: string): EventMapper<StatefulWorkload> {
  const generate = (w: StatefulWorkload): Request[] => [{ namespace: w.metadata.namespace, name: generateKey(group, 'StatefulSet', w.metadata.name!) }];
  const targeting = (w: StatefulWorkload): Request[] => ppss.byIndex('namespace', w.metadata.namespace!)
    .filter((p) => p.spec?.targetRef?.name === w.metadata.name && groupOf(p.spec!.targetRef.apiVersion) === group).map(keyOf);
  return {
    onAdd: (w) => (w.metadata.annotations?.[AutoGeneratePersistentPodStateAnnotation] ? generate(w) : []),
    onUpdate: (old, w) => [
      ...(generationAnnotations.some((a) => old.metadata.annotations?.[a] !== w.metadata.annotations?.[a]) ? generate(w) : []),
      ...(!!w.metadata.deletionTimestamp !== !!old.metadata.deletionTimestamp || old.spec?.replicas !== w.spec?.replicas ? targeting(w) : []),
    ],
    onDelete: (w) => targeting(w),
  };
}

export function setupPersistentPodStateController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<Caches>(persistentPodStateControllerName, { workers: options.workers ?? 3 })
    .for('ppss', PersistentPodStates, { indexes: ['namespace'] })
    .watches('pods', Pods, ({ informers }) => podMapper(informers.ppss), { indexes: ['controllerUid'] })
    .reads('nodes', Nodes)
    .watches('statefulSets', StatefulSets, ({ informers }) => workloadMapper(informers.ppss, 'apps'))
    .watches('advancedStatefulSets', AdvancedStatefulSets, ({ informers }) => workloadMapper(informers.ppss, 'apps.kruise.io'))
    .complete(({ informers, client }) => new PersistentPodStateReconciler({ ...informers, client }));
}
