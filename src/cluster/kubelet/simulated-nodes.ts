/**
 * createSimulatedNodes: many kubelets in one process, KWOK style, each with its own fake container
 * runtime, all talking to the API only through a Client (so they work against any API server).
 * One shared pod informer (bound pods, indexed by node) and one controller serve every node: a
 * request is a pod key, reconciled by that pod's worker on its node. Each node writes its own
 * kubelet events; ConfigMaps and Secrets for container environments come from informers shared by
 * all nodes, one pair per namespace in use (docs/design/simulated-nodes.md §16, §18).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Nodes, Pods } from '../../api/resource-type.js';
import { createFakeRuntime, type FakeRuntime, type FakeRuntimeOptions } from '../../daemon/cri/fake-runtime.js';
import { serveCri, type CriServer } from '../../daemon/cri/grpc/server.js';
import { KubeletLabels, type ContainerEventResponse } from '../../daemon/cri/types.js';
import { logger } from '../../machinery/log.js';
import { Controller } from '../../runtime/controller.js';
import { EventRecorder } from '../../runtime/events.js';
import { byNodeName, IndexNames } from '../../runtime/indexers.js';
import { Informer } from '../../runtime/informer.js';
import { ConfigSources } from './config/config-sources.js';
import type { ProbeNetwork } from '../../daemon/podprobe/network.js';
import { NodeAgent } from './node-agent.js';
import { DaemonProbeAnnotations, scriptFor } from './script-annotations.js';
import { simulatedEndpoints } from './simulated-endpoints.js';
import { PodWorker } from './pod-worker.js';
import { ReadinessOverrides } from './readiness.js';
import { resolveOptions, type ResolvedOptions, type SimulatedNodesOptions } from './options.js';
import { nodeStateFile, removeStaleNodes } from './node-state.js';
import type { Pod } from '../../api/core/index.js';
import type { KubeletConnections } from '../../api/pod-streams.js';
import type { ContainerConfig } from '../../daemon/cri/types.js';
import { SimulatedNodeStreams } from './streaming/node-streams.js';
import { admissionFailure, type Rejection } from './admission/pod-admission.js';
import type { Node } from '../../api/core/index.js';
import { containerEnv, containerFacts } from './streaming/container-facts.js';
import { execCommand } from './behaviour/exec-command.js';
import { PodTokens } from './pod-tokens.js';

export interface SimulatedNodes {
  /** Registers the initial nodes and starts syncing pods; resolves once nodes are registered and the pod cache is synced. */
  start(): Promise<void>;
  /** Stops heartbeats and pod syncs; Nodes, Leases and pods stay in the API. */
  stop(): Promise<void>;
  addNode(name: string): Promise<void>;
  /** Deletes the Node and its Lease and drops its containers (pods bound to it stay, as upstream). */
  removeNode(name: string): Promise<void>;
  /** Makes a container's readiness probe fail (false) or succeed (true). */
  setContainerReady(namespace: string, pod: string, container: string, ready: boolean): void;
  nodeNames(): string[];
  /** The node's container runtime (for kruise-daemon tests driving the same CRI). */
  runtime(nodeName: string): FakeRuntime | undefined;
  /** The unix socket serving the node's runtime over CRI gRPC (only with the `criSocketDir` option). */
  criSocket(nodeName: string): string | undefined;
  /** The simulated pod network kruise-daemons probe through (docs/design/pod-probes.md §7). */
  probeNetwork(): ProbeNetwork;
  /** The nodes' streaming server (exec, attach, port-forward, logs) the API server reaches them through. */
  streams(): KubeletConnections;
}

export function createSimulatedNodes(options: SimulatedNodesOptions): SimulatedNodes {
  return new SimulatedNodeSet(resolveOptions(options));
}

class SimulatedNodeSet implements SimulatedNodes {
  private readonly log = logger('kubelet');
  private readonly informer: Informer<Pod>;
  private readonly controller: Controller;
  private readonly agents = new Map<string, NodeAgent>();
  private readonly criServers = new Map<string, CriServer>();
  private readonly recorders = new Map<string, EventRecorder>();
  private readonly configSources: ConfigSources;
  private readonly podTokens: PodTokens;
  private readonly workers = new Map<string, { worker: PodWorker; node: string }>();
  private readonly uidsByKey = new Map<string, Set<string>>();
  private readonly overrides = new ReadinessOverrides();
  private network?: ProbeNetwork;
  private nodeStreams?: SimulatedNodeStreams;
  private nextIndex = 0;
  private started = false;

  constructor(private readonly o: ResolvedOptions) {
    this.informer = new Informer<Pod>({ client: o.client, type: Pods, fieldSelector: 'spec.nodeName!=', clock: o.clock, log: this.log });
    this.informer.addIndexer(IndexNames.nodeName, byNodeName);
    this.controller = new Controller({ name: 'simulated-kubelet', workers: o.workers, clock: o.clock, log: this.log, reconciler: (_ctx, req) => this.reconcile(req.namespace!, req.name) });
    const ours = (pod: Pod) => (this.agents.has(pod.spec?.nodeName ?? '') ? [{ namespace: pod.metadata.namespace, name: pod.metadata.name! }] : []);
    // our own status write coming back, and nothing else, cannot change what the worker sees (§24)
    const echo = (pod: Pod) => this.workers.get(pod.metadata.uid ?? '')?.worker.takeEcho(pod) ?? false;
    this.controller.watches(this.informer, { onAdd: ours, onUpdate: (old, pod) => (echo(pod) ? [] : [...ours(old), ...ours(pod)]), onDelete: ours });
    this.configSources = new ConfigSources({ client: o.client, clock: o.clock, log: this.log, onChange: (ns) => this.configChanged(ns) });
    this.podTokens = new PodTokens(o.clock, this.configSources);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.informer.start();
    const names = Array.from({ length: this.o.count }, (_, i) => `${this.o.namePrefix}${i}`);
    for (let i = 0; i < names.length; i += 20) await Promise.all(names.slice(i, i + 20).map((n) => this.addNode(n)));
    await this.controller.start();
    await this.housekeeping();
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.controller.stop();
    this.informer.stop();
    this.configSources.stop();
    await Promise.all([...this.agents.values()].map((a) => a.stop()));
    // With a state dir the containers outlive this process, as they outlive a real kubelet's restart.
    if (this.o.stateDir) for (const agent of this.agents.values()) agent.runtime.close();
    else await Promise.all([...this.workers.values()].map(({ worker }) => worker.runtime.teardown()));
    await Promise.all([...this.criServers.values()].map((server) => server.close()));
    this.criServers.clear();
    this.workers.clear();
    this.uidsByKey.clear();
  }

  /**
   * After a restart: sandboxes of pods that left while no kubelet ran are removed (kubelet's
   * housekeeping), and simulated nodes beyond today's count leave the cluster with their state.
   */
  private async housekeeping(): Promise<void> {
    for (const [name, agent] of this.agents) {
      const live = new Set(this.informer.byIndex(IndexNames.nodeName, name).map((p) => p.metadata.uid));
      for (const s of await agent.runtime.listPodSandbox()) {
        if (!live.has(s.labels[KubeletLabels.podUid])) await agent.runtime.removePodSandbox(s.id);
      }
    }
    if (this.o.stateDir) await removeStaleNodes(this.o, new Set(this.agents.keys()));
  }

  async addNode(name: string): Promise<void> {
    if (this.agents.has(name)) throw new Error(`node ${name} is already simulated`);
    const runtime = createFakeRuntime({ ...this.runtimeOptions(name), stateFile: this.o.stateDir && nodeStateFile(this.o.stateDir, name) });
    const version = await runtime.version();
    const index = this.nextIndex++;
    const client = this.o.clientFor(name);
    const agent = new NodeAgent({
      client, clock: this.o.clock, log: this.log, runtime,
      identity: {
        name, index, zone: this.o.zones[index % this.o.zones.length], capacity: this.o.capacity, labels: this.o.labels,
        kubeletVersion: this.o.kubeletVersion, containerRuntimeVersion: `${version.runtimeName}://${version.runtimeVersion.replace(/^v/, '')}`,
      },
      leaseDurationSeconds: this.o.leaseDurationSeconds, leaseRenewIntervalMs: this.o.leaseRenewIntervalMs,
      nodeStatusReportIntervalMs: this.o.nodeStatusReportIntervalMs,
      onContainerEvent: (e) => this.routeContainerEvent(e),
    });
    await agent.register();
    this.agents.set(name, agent);
    await this.serveCri(name, runtime);
    this.recorders.set(name, new EventRecorder({ client, component: 'kubelet', instance: name, clock: this.o.clock, log: this.log }));
    for (const pod of this.informer.byIndex(IndexNames.nodeName, name)) this.enqueue(pod.metadata.namespace ?? 'default', pod.metadata.name!);
  }

  async removeNode(name: string): Promise<void> {
    const agent = this.agents.get(name);
    if (!agent) return;
    this.agents.delete(name);
    this.recorders.delete(name);
    for (const [uid, entry] of this.workers) {
      if (entry.node !== name) continue;
      this.workers.delete(uid);
      this.podTokens.forget(uid);
      await entry.worker.runtime.teardown();
    }
    await this.criServers.get(name)?.close();
    this.criServers.delete(name);
    await agent.deregister();
    agent.runtime.close();
    if (this.o.stateDir) await rm(nodeStateFile(this.o.stateDir, name), { force: true });
  }

  setContainerReady(namespace: string, pod: string, container: string, ready: boolean): void {
    this.overrides.set(namespace, pod, container, ready);
    this.enqueue(namespace, pod);
  }

  nodeNames(): string[] {
    return [...this.agents.keys()];
  }

  runtime(nodeName: string): FakeRuntime | undefined {
    return this.agents.get(nodeName)?.runtime;
  }

  criSocket(nodeName: string): string | undefined {
    return this.criServers.get(nodeName)?.socketPath;
  }

  probeNetwork(): ProbeNetwork {
    return (this.network ??= simulatedEndpoints(() => this.informer.list(), this.o.clock));
  }

  streams(): KubeletConnections {
    return (this.nodeStreams ??= new SimulatedNodeStreams({
      clock: this.o.clock, runtime: (node) => this.agents.get(node)?.runtime, pod: (ns, name) => this.informer.get(ns, name),
      volumeFiles: (pod, container) => this.podTokens.containerFiles(pod, container),
    }));
  }

  private async serveCri(name: string, runtime: FakeRuntime): Promise<void> {
    if (this.o.criSocketDir === undefined) return;
    const server = await serveCri(runtime, path.join(this.o.criSocketDir, `${name}.sock`));
    this.criServers.set(name, server);
    // The one surprise worth a line: a data dir too deep for sun_path moves the socket to tmpdir.
    if (!server.socketPath.startsWith(this.o.criSocketDir)) this.log.debug({ node: name, socket: server.socketPath }, 'CRI socket path shortened');
  }

  private runtimeOptions(node: string): FakeRuntimeOptions {
    const { clock, pullDelayMs, startDelayMs, pullError, behaviour } = this.o;
    return { clock, pullDelayMs, startDelayMs, pullError: pullError && ((image, auth) => pullError(image, auth, node)), registry: behaviour.registry, execScript: (labels) => this.execScript(labels), exec: (config, cmd) => this.execSync(config, cmd) };
  }

  /** ExecSync without an exec script runs the command through the interpreter (docs/design/streaming.md §3). */
  private execSync(config: ContainerConfig, cmd: string[]): { stdout: string; stderr: string; exitCode: number } {
    const labels = config.labels ?? {};
    const pod = this.informer.get(labels[KubeletLabels.podNamespace], labels[KubeletLabels.podName] ?? '');
    const fallback = { metadata: { name: labels[KubeletLabels.podName] ?? '', namespace: labels[KubeletLabels.podNamespace] }, spec: { containers: [] } } as Pod;
    const p = pod?.metadata.uid === labels[KubeletLabels.podUid] ? pod! : fallback;
    const files = this.podTokens.containerFiles(p, labels[KubeletLabels.containerName] ?? '');
    const out = execCommand(cmd, containerEnv(p, config), containerFacts(p, this.o.clock.now(), files));
    const text = (stream: string) => out.transcript.textUntil(Number.isFinite(out.ms) ? out.ms : 0).filter((w) => w.stream === stream).map((w) => w.text).join('');
    return { stdout: text('stdout'), stderr: text('stderr'), exitCode: out.exitCode };
  }

  /** The pod's exec script for the container with these kubelet labels (docs/design/pod-probes.md §7). */
  private execScript(labels: Record<string, string>): string | undefined {
    const pod = this.informer.get(labels[KubeletLabels.podNamespace], labels[KubeletLabels.podName] ?? '');
    if (!pod || pod.metadata.uid !== labels[KubeletLabels.podUid]) return undefined;
    return scriptFor(pod, DaemonProbeAnnotations.exec, labels[KubeletLabels.containerName] ?? '');
  }

  private enqueue(namespace: string, name: string): void {
    this.controller.enqueue({ namespace, name });
  }

  /** A ConfigMap or Secret of `namespace` changed: pods waiting on their environment retry now. */
  private configChanged(namespace: string): void {
    for (const { worker } of this.workers.values()) {
      if (worker.namespace === namespace && worker.runtime.configChanged()) this.enqueue(namespace, worker.name);
    }
  }

  private routeContainerEvent(e: ContainerEventResponse): void {
    const status = e.containersStatuses[0];
    const entry = status && this.workers.get(status.labels[KubeletLabels.podUid] ?? '');
    if (!entry) return;
    entry.worker.runtime.observe(status, e.containerEventType);
    this.enqueue(status.labels[KubeletLabels.podNamespace], status.labels[KubeletLabels.podName]);
  }

  private async reconcile(namespace: string, name: string): Promise<{ requeueAfterMs?: number }> {
    const key = `${namespace}/${name}`;
    const pod = this.informer.get(namespace, name);
    const uids = this.uidsByKey.get(key) ?? new Set<string>();
    for (const uid of uids) {
      if (pod?.metadata.uid === uid) continue;
      uids.delete(uid);
      const gone = this.workers.get(uid);
      this.workers.delete(uid);
      this.podTokens.forget(uid);
      await gone?.worker.teardown();
    }
    if (uids.size === 0) this.uidsByKey.delete(key);
    const node = pod?.spec.nodeName ?? '';
    const agent = this.agents.get(node);
    if (!pod || !agent) return {};
    let entry = this.workers.get(pod.metadata.uid!);
    if (!entry && needsAdmission(pod)) {
      const nodeObject = await agent.client.get<Node>(Nodes, undefined, node).catch(() => undefined);
      const rejection = nodeObject && !this.workers.has(pod.metadata.uid!) ? admissionFailure(pod, nodeObject, this.activePods(node)) : undefined;
      if (rejection) return this.reject(pod, rejection);
      entry = this.workers.get(pod.metadata.uid!);
    }
    if (!entry) {
      entry = { worker: this.newWorker(agent, pod), node };
      this.workers.set(pod.metadata.uid!, entry);
      this.uidsByKey.set(key, uids.add(pod.metadata.uid!));
      await entry.worker.runtime.adopt();
    }
    if (!pod.metadata.deletionTimestamp) {
      await this.podTokens.ensure(pod, agent.client).catch((e: Error) => this.log.debug({ pod: key, err: e.message }, 'projected volume not filled'));
    }
    const after = await entry.worker.sync(pod);
    return after === undefined ? {} : { requeueAfterMs: after };
  }

  /** The node's admitted pods that still hold resources (kubelet's active pods). */
  private activePods(node: string): Pod[] {
    const out: Pod[] = [];
    for (const { worker, node: on } of this.workers.values()) {
      const pod = on === node ? this.informer.get(worker.namespace, worker.name) : undefined;
      if (pod && pod.metadata.uid === worker.uid && !isTerminal(pod)) out.push(pod);
    }
    return out;
  }

  /** kubelet's rejectPod: a Warning event, and the pod Failed with the reason (docs/design/simulated-nodes.md §21). */
  private async reject(pod: Pod, rejection: Rejection): Promise<{ requeueAfterMs?: number }> {
    const { reason, message } = rejection;
    this.recorders.get(pod.spec.nodeName!)?.event({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, 'Warning', reason, message);
    const status = { phase: 'Failed', reason, message: `Pod was rejected: ${message}` };
    const client = this.agents.get(pod.spec.nodeName!)?.client ?? this.o.client;
    await client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { metadata: { uid: pod.metadata.uid }, status }, { subresource: 'status' });
    return {};
  }

  private newWorker(agent: NodeAgent, pod: Pod): PodWorker {
    return new PodWorker({
      client: agent.client, runtime: agent.runtime, events: this.recorders.get(agent.name)!, configSources: this.configSources,
      clock: this.o.clock, log: this.log.child({ node: agent.name }),
      nodeName: agent.name, hostIP: agent.hostIP, runtimeName: 'containerd', readiness: this.o.readiness,
      overrides: this.overrides, terminationDelayMs: this.o.terminationDelayMs, podCleanupDelayMs: this.o.podCleanupDelayMs, crashBackoff: this.o.crashLoopBackoff,
      behaviour: this.o.behaviour, enqueue: (ns, n) => this.enqueue(ns, n),
    }, pod);
  }
}

const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** A pod the kubelet has not admitted yet: never started here, not finished, not going away. */
function needsAdmission(pod: Pod): boolean {
  return !isTerminal(pod) && !pod.status?.startTime && !pod.metadata.deletionTimestamp;
}
