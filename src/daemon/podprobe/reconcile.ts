/**
 * The daemon's one reconcile for its NodePodProbe (docs/design/pod-probes.md §4, §5): match the
 * workers to the spec, then write the status the workers' results make, announcing each new result
 * as a `KruiseProbeSucceeded` / `KruiseProbeFailed` event on its pod. Workers report into the
 * results store, which asks for another reconcile.
 */
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { NodePodProbes } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import type { Clock } from '../../machinery/clock.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { ReconcileContext, Result } from '../../runtime/controller.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Informer } from '../../runtime/informer.js';
import type { ProbeWorkers } from './probe-workers.js';
import { resultKey, type ProbeResults } from './results.js';
import { nextStatus, specProbeKeys } from './status.js';

export const ProbeEvents = { succeeded: 'KruiseProbeSucceeded', failed: 'KruiseProbeFailed' } as const;

export interface PodProbeReconcilerDeps {
  nodeName: string;
  probes: Informer<NodePodProbe>;
  client: Client;
  clock: Clock;
  events: EventRecorder;
  workers: ProbeWorkers;
  results: ProbeResults;
}

export class PodProbeReconciler {
  private stopHooked = false;

  constructor(private readonly d: PodProbeReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext): Promise<Result> {
    if (!this.stopHooked) {
      this.stopHooked = true;
      ctx.signal.addEventListener('abort', () => this.d.workers.stopAll(), { once: true });
    }
    const npp = this.d.probes.get(undefined, this.d.nodeName);
    this.d.workers.sync(npp?.metadata.deletionTimestamp ? undefined : npp);
    if (!npp || npp.metadata.deletionTimestamp) return {};
    this.announce(npp);
    const status = nextStatus(npp, this.d.results.list(), this.d.clock.now());
    if (deepEqual(status, npp.status ?? {})) return {};
    await this.d.client.updateStatus(NodePodProbes, { ...npp, status });
    return {};
  }

  private announce(npp: NodePodProbe): void {
    const valid = specProbeKeys(npp);
    for (const r of this.d.results.takeFresh()) {
      const t = r.target;
      if (r.state === 'Unknown' || !valid.has(resultKey(t.podUid, t.probeName))) continue;
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: t.podNamespace, name: t.podName, uid: t.podUid } };
      this.d.events.event(pod, 'Normal', r.state === 'Succeeded' ? ProbeEvents.succeeded : ProbeEvents.failed, r.message);
    }
  }
}
