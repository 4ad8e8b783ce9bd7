/**
 * In-memory RuntimeService of one node: sandboxes with an IP from the node's pod CIDR, containers
 * with fresh random ids that start after `startDelayMs` on the injected clock, and a container event
 * stream (GetContainerEvents) so a kubelet needs no polling PLEG.
 */
import { randomBytes } from 'node:crypto';
import { sleep, type Clock } from '../../machinery/clock.js';
import { parseOutcomeScript, succeedsAt, type OutcomeScript } from '../../machinery/outcome-script.js';
import { FakeContainer, type ContainerChange, type ContainerRecord } from './fake-container.js';
import { fakeExecOutput } from './fake-exec.js';
import type { FakeImageService } from './fake-images.js';
import { IpPool, type IpPoolState } from './ip-pool.js';
import { CriError, type RuntimeService } from './services.js';
import type {
  Container, ContainerConfig, ContainerEventResponse, ContainerEventType, ContainerFilter, ContainerStatus, ExecSyncResponse, Labels,
  PodSandbox, PodSandboxConfig, PodSandboxFilter, PodSandboxStatus, RuntimeConfig, VersionResponse,
} from './types.js';

export interface FakeRuntimeServiceOptions {
  clock: Clock;
  startDelayMs?: number;
  /** How long a container takes to exit after SIGTERM (default: it ignores SIGTERM and is killed). */
  terminationDelayMs?: number;
  /** Pod CIDR for sandbox IPs until updateRuntimeConfig sets one (containerd's CNI default). */
  podCidr?: string;
  runtimeVersion?: string;
  /** Called after every change of sandboxes or containers (the runtime keeps its state on disk). */
  onStateChange?: () => void;
  /**
   * The outcome script (machinery/outcome-script.ts) ExecSync answers by in a running container with
   * these kubelet labels; undefined: every command succeeds (docs/design/pod-probes.md §7).
   */
  execScript?: (labels: Labels) => string | undefined;
  exec?: (config: ContainerConfig, cmd: string[]) => { stdout: string; stderr: string; exitCode: number };
}

interface FakeSandbox { sandbox: PodSandbox; ip?: string }

/** Sandboxes, containers and IPs as the runtime's state file keeps them. */
export interface RuntimeServiceState {
  pool: IpPoolState;
  sandboxes: FakeSandbox[];
  containers: { id: string; podSandboxId: string; config: ContainerConfig; imageRef: string; createdAt: number; life: ContainerRecord }[];
}

const execAnswer = (exitCode: number, stderr: string): ExecSyncResponse => ({ stdout: new Uint8Array(), stderr: new TextEncoder().encode(stderr), exitCode });
const newId = (): string => randomBytes(32).toString('hex');
const ns = (ms: number): number => ms * 1_000_000;
const matches = (labels: Labels, selector?: Labels): boolean => !selector || Object.entries(selector).every(([k, v]) => labels[k] === v);

export class FakeRuntimeService implements RuntimeService {
  private readonly sandboxes = new Map<string, FakeSandbox>();
  private readonly containers = new Map<string, FakeContainer>();
  private readonly listeners = new Set<(e: ContainerEventResponse) => void>();
  private pool: IpPool;

  constructor(private readonly images: FakeImageService, private readonly options: FakeRuntimeServiceOptions) {
    this.pool = new IpPool(options.podCidr ?? '10.88.0.0/16');
  }

  snapshot(): RuntimeServiceState {
    return {
      pool: this.pool.snapshot(),
      sandboxes: [...this.sandboxes.values()].map((s) => structuredClone(s)),
      containers: [...this.containers.values()].filter((c) => c.state !== 'CONTAINER_CREATED').map((c) => ({
        id: c.id, podSandboxId: c.podSandboxId, config: c.config, imageRef: c.imageRef, createdAt: c.createdAt, life: c.record(),
      })),
    };
  }

  /**
   * Takes up the state a previous runtime process left: running containers go on running (their
   * scripts counted from their original start), no event is published for what already happened.
   */
  restore(state: RuntimeServiceState): void {
    this.pool = IpPool.restore(state.pool);
    for (const s of state.sandboxes) this.sandboxes.set(s.sandbox.id, structuredClone(s));
    for (const r of state.containers) {
      const c = this.newContainer(r.id, r.podSandboxId, r.config, r.imageRef, r.createdAt);
      c.resume(r.life);
      this.containers.set(c.id, c);
    }
  }

  async version(): Promise<VersionResponse> {
    return { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: this.options.runtimeVersion ?? 'v1.7.24', runtimeApiVersion: 'v1' };
  }

  async updateRuntimeConfig(config: RuntimeConfig): Promise<void> {
    const cidr = config.networkConfig?.podCidr;
    if (cidr && cidr !== this.pool.cidr) this.pool = new IpPool(cidr);
    this.options.onStateChange?.();
  }

  async runPodSandbox(config: PodSandboxConfig, runtimeHandler?: string): Promise<string> {
    const id = newId();
    const sandbox: PodSandbox = {
      id, metadata: { ...config.metadata }, state: 'SANDBOX_READY', createdAt: ns(this.options.clock.now()),
      labels: { ...config.labels }, annotations: { ...config.annotations }, runtimeHandler,
    };
    this.sandboxes.set(id, { sandbox, ip: this.pool.allocate() });
    this.options.onStateChange?.();
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    const s = this.sandboxes.get(id);
    if (!s) return;
    for (const c of this.containersOf(id)) c.exit(137);
    if (s.ip) this.pool.release(s.ip);
    s.ip = undefined;
    s.sandbox.state = 'SANDBOX_NOTREADY';
    this.options.onStateChange?.();
  }

  async removePodSandbox(id: string): Promise<void> {
    await this.stopPodSandbox(id);
    for (const c of this.containersOf(id)) await this.removeContainer(c.id);
    this.sandboxes.delete(id);
    this.options.onStateChange?.();
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus> {
    const s = this.sandbox(id);
    return { ...structuredClone(s.sandbox), network: s.ip ? { ip: s.ip, additionalIps: [] } : undefined };
  }

  async listPodSandbox(filter?: PodSandboxFilter): Promise<PodSandbox[]> {
    return [...this.sandboxes.values()].map((s) => s.sandbox)
      .filter((s) => (!filter?.id || s.id === filter.id) && (!filter?.state || s.state === filter.state) && matches(s.labels, filter?.labelSelector))
      .map((s) => structuredClone(s));
  }

  async createContainer(podSandboxId: string, config: ContainerConfig): Promise<string> {
    const s = this.sandbox(podSandboxId);
    if (s.sandbox.state !== 'SANDBOX_READY') throw new CriError('FailedPrecondition', `sandbox ${podSandboxId} is not ready`);
    const image = this.images.find(config.image.image);
    if (!image) throw new CriError('NotFound', `failed to get image "${config.image.image}": not found`);
    const c = this.newContainer(newId(), podSandboxId, structuredClone(config), this.images.imageRef(config.image.image));
    this.containers.set(c.id, c);
    this.emit(c, 'CONTAINER_CREATED_EVENT');
    return c.id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.container(id);
    if (c.state !== 'CONTAINER_CREATED') throw new CriError('FailedPrecondition', `container ${id} is in ${c.state} state`);
    const startDelayMs = c.startDelayMs() ?? this.options.startDelayMs;
    if (startDelayMs) await sleep(this.options.clock, startDelayMs);
    if (c.state !== 'CONTAINER_CREATED') throw new CriError('FailedPrecondition', `container ${id} was stopped while starting`);
    c.markRunning();
  }

  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    await this.container(id).stop(Math.max(0, timeoutSeconds) * 1000);
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containers.get(id);
    if (!c) return;
    c.exit(137);
    c.dispose();
    this.containers.delete(id);
    this.emit(c, 'CONTAINER_DELETED_EVENT');
  }

  async listContainers(filter?: ContainerFilter): Promise<Container[]> {
    return [...this.containers.values()]
      .filter((c) => (!filter?.id || c.id === filter.id) && (!filter?.state || c.state === filter.state)
        && (!filter?.podSandboxId || c.podSandboxId === filter.podSandboxId) && matches(c.config.labels ?? {}, filter?.labelSelector))
      .map((c) => { const { startedAt: _s, finishedAt: _f, exitCode: _e, reason: _r, message: _m, ...rest } = c.status(); return { ...rest, podSandboxId: c.podSandboxId }; });
  }

  async containerStatus(id: string): Promise<ContainerStatus> {
    return this.container(id).status();
  }

  /**
   * ExecSync as containerd answers it: an unknown container is NotFound and one that is not running
   * a plain (Unknown) error. Nothing runs, so in a running container a command exits 0 (`env` and
   * `printenv` print the container's environment, fake-exec.ts), unless the container's exec
   * script says otherwise: exit 1, or an answer after its latency, a
   * DeadlineExceeded error once that reaches `timeoutSeconds` (docs/design/pod-probes.md §7).
   */
  async execSync(id: string, cmd: string[] = [], timeoutSeconds = 0): Promise<ExecSyncResponse> {
    const c = this.containers.get(id);
    if (!c) throw new CriError('NotFound', `failed to exec in container: failed to find container "${id}" in store: not found`);
    if (c.state !== 'CONTAINER_RUNNING') throw new CriError('Unknown', `failed to exec in container: container is in ${c.state} state`);
    const text = this.options.execScript?.(c.config.labels ?? {});
    if (text === undefined) {
      const out = this.options.exec?.(c.config, cmd) ?? { ...fakeExecOutput(c.config, cmd), stderr: '' };
      return { stdout: new TextEncoder().encode(out.stdout), stderr: new TextEncoder().encode(out.stderr), exitCode: out.exitCode };
    }
    let script: OutcomeScript;
    try {
      script = parseOutcomeScript(text);
    } catch (e) {
      return execAnswer(2, `simulated exec script: ${(e as Error).message}`);
    }
    const succeeds = succeedsAt(script.shape, this.options.clock.now() - c.status().startedAt / 1_000_000);
    if (timeoutSeconds > 0 && script.latencyMs >= timeoutSeconds * 1000) {
      await sleep(this.options.clock, timeoutSeconds * 1000);
      throw new CriError('DeadlineExceeded', `failed to exec in container: timeout ${timeoutSeconds}s exceeded: context deadline exceeded`);
    }
    if (script.latencyMs > 0) await sleep(this.options.clock, script.latencyMs);
    return execAnswer(succeeds ? 0 : 1, '');
  }

  containerConfig(id: string): ContainerConfig | undefined {
    return this.containers.get(id)?.config;
  }

  getContainerEvents(listener: (e: ContainerEventResponse) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The runtime process goes away: containers keep their state (on disk) but no timer fires here any more. */
  suspend(): void {
    for (const c of this.containers.values()) c.dispose();
    this.listeners.clear();
  }

  /** Test and daemon hook: the container's process dies now with `exitCode` (a crash, OOM...). */
  killContainer(id: string, exitCode: number, reason?: string): void {
    this.container(id).exit(exitCode, reason);
  }

  private newContainer(id: string, podSandboxId: string, config: ContainerConfig, imageRef: string, createdAt?: number): FakeContainer {
    return new FakeContainer(id, podSandboxId, config, imageRef, this.options.clock,
      this.options.terminationDelayMs ?? Infinity, (container, change) => this.publish(container, change), createdAt);
  }

  private publish(c: FakeContainer, change: ContainerChange): void {
    this.emit(c, change === 'started' ? 'CONTAINER_STARTED_EVENT' : 'CONTAINER_STOPPED_EVENT');
  }

  private emit(c: FakeContainer, type: ContainerEventType): void {
    this.options.onStateChange?.();
    if (this.listeners.size === 0) return;
    const event: ContainerEventResponse = { containerId: c.id, containerEventType: type, createdAt: ns(this.options.clock.now()), containersStatuses: [c.status()] };
    for (const listener of this.listeners) listener(event);
  }

  private containersOf(sandboxId: string): FakeContainer[] {
    return [...this.containers.values()].filter((c) => c.podSandboxId === sandboxId);
  }

  private sandbox(id: string): FakeSandbox {
    const s = this.sandboxes.get(id);
    if (!s) throw new CriError('NotFound', `an error occurred when try to find sandbox: not found: ${id}`);
    return s;
  }

  private container(id: string): FakeContainer {
    const c = this.containers.get(id);
    if (!c) throw new CriError('NotFound', `an error occurred when try to find container "${id}": not found`);
    return c;
  }
}
