/**
 * kruise-daemon's pod prober (docs/design/pod-probes.md §4-§6): an informer on this node's
 * NodePodProbe only (`metadata.name=<node>`) and on the pods bound to the node (`spec.nodeName`),
 * one worker per listed probe acting on containers through the node's CRI runtimes, results written
 * into the NodePodProbe's status. Behind PodProbeMarkerGate (which needs KruiseDaemon).
 */
import { Gauge } from 'prom-client';
import { Pods } from '../../api/resource-type.js';
import { NodePodProbes } from '../../api/kruise/resource-types.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { Controller } from '../../runtime/controller.js';
import type { DaemonContext } from '../controllers.js';
import { ProbeWorkers } from './probe-workers.js';
import { PodProbeReconciler } from './reconcile.js';
import { ProbeResults } from './results.js';
import type { Pod } from '../../api/core/index.js';

export const podProbeControllerName = 'pod-probe-controller';

export function setupPodProbeController(ctx: DaemonContext): Controller {
  const { mgr, nodeName } = ctx;
  let controller: Controller | undefined;
  const workersGauge = new Gauge({ name: 'kruise_daemon_pod_probe_workers', help: 'Probe workers running (one per pod, container and probe)', registers: [mgr.metrics.registry] });
  const results = new ProbeResults(() => controller?.enqueue({ name: nodeName }));
  controller = mgr.controllerFor<{ probes: NodePodProbe; pods: Pod }>(podProbeControllerName, { eventSource: 'kruise-daemon-podprobe' })
    .for('probes', NodePodProbes, { selection: { fieldSelector: `metadata.name=${nodeName}` } })
    .reads('pods', Pods, { selection: { fieldSelector: `spec.nodeName=${nodeName}` } })
    .complete(({ informers, client, clock, events }) => {
      const workers = new ProbeWorkers({
        clock, log: ctx.log.child({ controller: podProbeControllerName }), runtimes: ctx.runtimes, network: ctx.network, results,
        pod: (namespace, name) => informers.pods.get(namespace, name), startedAt: clock.now(),
      }, (n) => workersGauge.set(n));
      return new PodProbeReconciler({ nodeName, probes: informers.probes, client, clock, events, workers, results });
    });
  return controller;
}
