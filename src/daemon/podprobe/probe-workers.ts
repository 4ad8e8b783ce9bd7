/**
 * The running workers, matched to the NodePodProbe's spec on every sync (docs/design/pod-probes.md
 * §4): a worker per (pod uid, pod IP, container, probe name) listed; a listed probe whose spec
 * changed updates its worker; a worker whose probe left the spec stops and drops its result.
 */
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { ProbeTarget } from './results.js';
import { ProbeWorker, type WorkerDeps } from './worker.js';

const workerKey = (t: ProbeTarget): string => [t.podUid, t.podIP, t.containerName, t.probeName].join('/');

export class ProbeWorkers {
  private readonly workers = new Map<string, ProbeWorker>();

  /** `onCount` reports how many workers run (the `kruise_daemon_pod_probe_workers` gauge). */
  constructor(private readonly deps: WorkerDeps, private readonly onCount: (n: number) => void = () => undefined) {}

  size(): number {
    return this.workers.size;
  }

  sync(npp: NodePodProbe | undefined): void {
    const listed = new Set<string>();
    for (const pod of npp?.spec?.podProbes ?? []) {
      for (const p of pod.probes ?? []) {
        const target: ProbeTarget = { podNamespace: pod.namespace, podName: pod.name, podUid: pod.uid, podIP: pod.IP ?? '', containerName: p.containerName, probeName: p.name };
        const key = workerKey(target);
        listed.add(key);
        const worker = this.workers.get(key);
        if (!worker) {
          const created = new ProbeWorker(target, p.probe, this.deps);
          this.workers.set(key, created);
          created.start();
        } else if (!deepEqual(worker.probe, p.probe)) {
          worker.update(p.probe);
        }
      }
    }
    for (const [key, worker] of this.workers) {
      if (listed.has(key)) continue;
      worker.stop();
      this.workers.delete(key);
    }
    this.onCount(this.workers.size);
  }

  stopAll(): void {
    this.sync(undefined);
  }
}
