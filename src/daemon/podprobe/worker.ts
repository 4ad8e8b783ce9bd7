/**
 * One worker per (pod, container, probe) (upstream's probe worker; docs/design/pod-probes.md §4):
 * every periodSeconds (at least 1; a random part of the first period when the daemon just started,
 * so a restart does not probe everything at once) it finds the container through the pod's status
 * and CRI, waits out initialDelaySeconds (at least 1) from the container's start, probes, and
 * reports a state once successThreshold / failureThreshold runs in a row agree. A new container
 * resets the state to Unknown, and so does a changed handler.
 */
import type { Pod } from '../../api/core/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Clock } from '../../machinery/clock.js';
import type { Logger } from '../../machinery/log.js';
import type { RuntimeRegistry } from '../runtime/registry.js';
import type { ProbeNetwork } from './network.js';
import type { ProbeResults, ProbeTarget } from './results.js';
import { runProbe, type ProbeOutcome, type ProbeSpec } from './run-probe.js';

export interface WorkerDeps {
  clock: Clock;
  log: Logger;
  runtimes: RuntimeRegistry;
  network: ProbeNetwork;
  results: ProbeResults;
  pod(namespace: string, name: string): Pod | undefined;
  /** When the daemon started: workers made within one period of it start at a random offset. */
  startedAt: number;
}

const handlerOf = ({ exec, tcpSocket, httpGet, grpc }: ProbeSpec) => ({ exec, tcpSocket, httpGet, grpc });

export class ProbeWorker {
  private cancelTimer?: () => void;
  private stopped = false;
  private containerId = '';
  private last?: { state: ProbeOutcome['state']; run: number };

  constructor(readonly target: ProbeTarget, private spec: ProbeSpec, private readonly deps: WorkerDeps) {}

  get probe(): ProbeSpec {
    return this.spec;
  }

  start(): void {
    const period = this.periodMs();
    const now = this.deps.clock.now();
    this.schedule(now - this.deps.startedAt < period ? Math.floor(Math.random() * period) : 0);
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.deps.results.remove(this.target);
  }

  update(spec: ProbeSpec): void {
    if (!deepEqual(handlerOf(spec), handlerOf(this.spec)) && this.containerId) {
      this.deps.results.set(this.target, 'Unknown', '', this.deps.clock.now());
      this.last = undefined;
    }
    this.spec = spec;
  }

  private periodMs(): number {
    return Math.max(1, this.spec.periodSeconds ?? 10) * 1000;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.cancelTimer = this.deps.clock.after(ms, () => {
      const began = this.deps.clock.now();
      this.tick().catch((e: unknown) => this.deps.log.error({ err: e, probe: this.target.probeName }, 'Probe failed to run'))
        .finally(() => this.schedule(Math.max(0, began + this.periodMs() - this.deps.clock.now())));
    });
  }

  private async tick(): Promise<void> {
    const { podNamespace, podName, podUid, containerName } = this.target;
    const pod = this.deps.pod(podNamespace, podName);
    if (!pod || pod.metadata.uid !== podUid) return;
    const containerID = pod.status?.containerStatuses?.find((s) => s.name === containerName)?.containerID;
    const found = containerID ? this.deps.runtimes.forContainerId(containerID) : undefined;
    if (!found) return;
    const status = await found.runtime.containerStatus(found.id).catch(() => undefined);
    if (!status || this.stopped) return;
    const now = this.deps.clock.now();
    if (found.id !== this.containerId) {
      this.containerId = found.id;
      this.last = undefined;
      this.deps.results.set(this.target, 'Unknown', '', now);
    }
    if (status.state !== 'CONTAINER_RUNNING') {
      this.deps.results.set(this.target, 'Failed', `Container(${containerName}) is Non-running`, now);
      return;
    }
    const initialDelayMs = Math.max(1, this.spec.initialDelaySeconds ?? 0) * 1000;
    if (now - status.startedAt / 1_000_000 < initialDelayMs) return;
    const outcome = await runProbe({ probe: this.spec, runtime: found.runtime, containerId: found.id, podIP: this.target.podIP || (pod.status?.podIP ?? ''), network: this.deps.network });
    if (this.stopped) return;
    this.record(outcome);
  }

  private record(outcome: ProbeOutcome): void {
    this.last = this.last?.state === outcome.state ? { state: outcome.state, run: this.last.run + 1 } : { state: outcome.state, run: 1 };
    const threshold = Math.max(1, (outcome.state === 'Failed' ? this.spec.failureThreshold : this.spec.successThreshold) ?? 1);
    if (this.last.run < threshold) return;
    this.deps.results.set(this.target, outcome.state, outcome.message, this.deps.clock.now());
  }
}
