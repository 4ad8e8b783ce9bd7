/**
 * The simulated kubelets' streaming server (docs/design/streaming.md §3-§5): exec, attach,
 * port-forward and logs of the pods on the simulated nodes, answered from the node's fake runtime
 * and the command interpreter. Errors carry the kubelet's messages; the API server turns them into
 * its answers.
 */
import type { Clock } from '../../../machinery/clock.js';
import type { ContainerTarget, KubeletConnections, LogOptions, LogSink, NodeStreams, PortConnection, ProcessIO, ProcessSession } from '../../../api/pod-streams.js';
import type { Pod } from '../../../api/core/index.js';
import type { FakeRuntime } from '../../../daemon/cri/fake-runtime.js';
import { KubeletLabels, type ContainerStatus } from '../../../daemon/cri/types.js';
import { listenerReach } from '../simulated-endpoints.js';
import { readContainerLog, type ExitWatch } from './container-log.js';
import { containerEnv, containerFacts } from './container-facts.js';
import { startExec } from './exec-process.js';
import { attachTo } from './attach.js';
import { refusedMessage, simulatedListener } from './port-forward.js';

export interface NodeStreamsOptions {
  clock: Clock;
  runtime(node: string): FakeRuntime | undefined;
  pod(namespace: string, name: string): Pod | undefined;
  /** The container's projected-volume files (PodTokens). */
  volumeFiles?(pod: Pod, container: string): Map<string, string>;
}

const ms = (ns: number) => Math.floor(ns / 1e6);

export class SimulatedNodeStreams implements NodeStreams, KubeletConnections {
  constructor(private readonly o: NodeStreamsOptions) {}

  forNode(nodeName: string): NodeStreams | undefined {
    return this.o.runtime(nodeName) ? this : undefined;
  }

  async exec(target: ContainerTarget, command: string[], options: { stdin: boolean; tty: boolean }, io: ProcessIO): Promise<ProcessSession> {
    const { pod, runtime, running } = await this.running(target);
    const env = containerEnv(pod, runtime.containerConfig(running.id));
    return startExec(this.o.clock, { command, env, facts: containerFacts(pod, ms(running.startedAt), this.o.volumeFiles?.(pod, target.container)), stdin: options.stdin, tty: options.tty }, io);
  }

  async attach(target: ContainerTarget, options: { stdin: boolean; tty: boolean }, io: ProcessIO): Promise<ProcessSession> {
    const { pod, runtime, running } = await this.running(target);
    const spec = pod.spec.containers.find((c) => c.name === target.container) ?? pod.spec.initContainers?.find((c) => c.name === target.container);
    const env = containerEnv(pod, runtime.containerConfig(running.id));
    return attachTo(this.o.clock, { spec: spec!, env, facts: containerFacts(pod, ms(running.startedAt), this.o.volumeFiles?.(pod, target.container)), stdin: options.stdin, tty: options.tty, exited: this.exited(runtime, running.id) }, io);
  }

  async portForward(target: Omit<ContainerTarget, 'container'>, port: number): Promise<PortConnection> {
    const { pod, runtime } = this.podOn(target);
    const reach = listenerReach(pod, port, this.o.clock);
    if (!reach.up) {
      const sandbox = (await runtime.listPodSandbox({ labelSelector: { [KubeletLabels.podUid]: target.uid } }))[0];
      throw new Error(refusedMessage(port, target.uid, sandbox?.id ?? target.uid));
    }
    return simulatedListener(`${target.namespace}/${target.pod}`, port);
  }

  async logs(target: ContainerTarget, options: LogOptions, sink: LogSink): Promise<() => void> {
    const { pod, runtime } = this.podOn(target);
    const attempts = await this.attempts(runtime, target);
    const attempt = options.previous ? attempts[1] : attempts[0];
    if (!attempt) throw new Error(`${options.previous ? 'previous terminated' : 'the'} container "${target.container}" in pod "${target.pod}" not found`);
    const spec = [...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...((pod.spec.ephemeralContainers ?? []) as typeof pod.spec.containers)]
      .find((c) => c.name === target.container)!;
    const started = { startedAt: ms(attempt.startedAt), finishedAt: ms(attempt.finishedAt) };
    return readContainerLog(this.o.clock, spec, started, options, sink, () => this.exited(runtime, attempt.id));
  }

  private podOn(target: Omit<ContainerTarget, 'container'>): { pod: Pod; runtime: FakeRuntime } {
    const pod = this.o.pod(target.namespace, target.pod);
    const runtime = pod?.spec.nodeName ? this.o.runtime(pod.spec.nodeName) : undefined;
    if (!pod || pod.metadata.uid !== target.uid || !runtime) throw new Error(`pod "${target.pod}" not found on the node`);
    return { pod, runtime };
  }

  /** The container's attempts, newest first. */
  private async attempts(runtime: FakeRuntime, target: ContainerTarget): Promise<ContainerStatus[]> {
    const listed = await runtime.listContainers({ labelSelector: { [KubeletLabels.podUid]: target.uid, [KubeletLabels.containerName]: target.container } });
    const statuses = await Promise.all(listed.map((c) => runtime.containerStatus(c.id)));
    return statuses.filter((s) => s.startedAt > 0).sort((a, b) => b.metadata.attempt - a.metadata.attempt || b.createdAt - a.createdAt);
  }

  private async running(target: ContainerTarget): Promise<{ pod: Pod; runtime: FakeRuntime; running: ContainerStatus }> {
    const { pod, runtime } = this.podOn(target);
    const running = (await this.attempts(runtime, target)).find((s) => s.state === 'CONTAINER_RUNNING');
    if (!running) throw new Error(`container not found ("${target.container}")`);
    return { pod, runtime, running };
  }

  /** Watches for the container's exit: a promise of its exit code, and the function that stops watching. */
  private exited(runtime: FakeRuntime, id: string): ExitWatch {
    let stop = () => undefined as void;
    const exit = new Promise<{ exitCode: number; finishedAt: number }>((resolve) => {
      const check = async () => {
        const s = await runtime.containerStatus(id).catch(() => undefined);
        if (!s || s.state === 'CONTAINER_EXITED') { stop(); resolve({ exitCode: s?.exitCode ?? 0, finishedAt: s ? ms(s.finishedAt) : this.o.clock.now() }); }
      };
      const unsubscribe = runtime.getContainerEvents((e) => { if (e.containerId === id) void check(); });
      stop = () => { unsubscribe(); };
      void check();
    });
    return { exit, stop: () => stop() };
  }
}
