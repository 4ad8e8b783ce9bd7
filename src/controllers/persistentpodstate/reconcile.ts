/**
 * persistentpodstate-controller (docs/design/persistentpodstate.md §3-4): records the node
 * topology of each Ready pod of the target StatefulSet, keeps records of pods that are away,
 * drops those outside the replica range under WhenScaled, empties the states once the workload is
 * gone, and serves the generation requests of annotated StatefulSets.
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { PersistentPodStates } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { isPodReady } from '../../control/podutil/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import { writeOrRequeue, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { generatePrefix, syncGenerated } from './generate.js';
import { isStale, liveOrdinals, ordinalOf, recordOf, type PodRecord, type PpsObject, type StatefulWorkload } from './records.js';

export interface PersistentPodStateDeps {
  client: Client;
  ppss: Informer<PpsObject>;
  pods: Informer<Pod>;
  nodes: Informer<KObject>;
  statefulSets: Informer<StatefulWorkload>;
  advancedStatefulSets: Informer<StatefulWorkload>;
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

export class PersistentPodStateReconciler {
  constructor(private readonly d: PersistentPodStateDeps) {}

  /** The StatefulSet cache of a target's group, with the apiVersion generated objects name. */
  workloads(group: string): { cache: Informer<StatefulWorkload>; apiVersion: string } | undefined {
    if (group === 'apps') return { cache: this.d.statefulSets, apiVersion: 'apps/v1' };
    if (group === 'apps.kruise.io') return { cache: this.d.advancedStatefulSets, apiVersion: 'apps.kruise.io/v1beta1' };
    return undefined;
  }

  async reconcile(_ctx: ReconcileContext, req: Request): Promise<Result | void> {
    if (req.name.startsWith(generatePrefix)) return this.generate(req);
    const pps = this.d.ppss.get(req.namespace, req.name);
    if (!pps || pps.metadata.deletionTimestamp) return;
    const target = pps.spec?.targetRef;
    const w = target?.kind === 'StatefulSet' ? this.workloads(groupOf(target.apiVersion))?.cache.get(req.namespace, target.name) : undefined;
    const states = !w || w.metadata.deletionTimestamp ? undefined : this.states(pps, w);
    return this.write(pps, states);
  }

  private states(pps: PpsObject, w: StatefulWorkload): Record<string, PodRecord> {
    const states: Record<string, PodRecord> = { ...pps.status?.podStates };
    const pods = this.d.pods.byIndex('controllerUid', w.metadata.uid!);
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp || !pod.spec.nodeName || !isPodReady(pod)) continue;
      const node = this.d.nodes.get(undefined, pod.spec.nodeName);
      if (node && isStale(pps, pod, states[pod.metadata.name!], node)) states[pod.metadata.name!] = recordOf(pps, pod, node);
    }
    if ((pps.spec?.persistentPodStateRetentionPolicy ?? 'WhenScaled') === 'WhenScaled') {
      const live = liveOrdinals(w);
      const existing = new Set(pods.map((p) => p.metadata.name!));
      for (const name of Object.keys(states)) {
        const ordinal = ordinalOf(name);
        if (ordinal !== undefined && !live.has(ordinal) && !existing.has(name)) delete states[name];
      }
    }
    return states;
  }

  private async write(pps: PpsObject, states: Record<string, PodRecord> | undefined): Promise<Result | void> {
    const status = { observedGeneration: pps.metadata.generation ?? 0, ...(states && Object.keys(states).length > 0 && { podStates: states }) };
    const old = { observedGeneration: pps.status?.observedGeneration ?? 0, ...(pps.status?.podStates && Object.keys(pps.status.podStates).length > 0 && { podStates: pps.status.podStates }) };
    if (pps.status && deepEqual(old, status)) return;
    return writeOrRequeue(() => this.d.client.updateStatus(PersistentPodStates, { ...pps, status }), 100);
  }

  private async generate(req: Request): Promise<void> {
    const [, group, , name] = req.name.split('#');
    const workloads = this.workloads(group);
    if (!workloads) return;
    await syncGenerated(this.d.client, workloads.apiVersion, workloads.cache.get(req.namespace, name), this.d.ppss.get(req.namespace, name));
  }
}
