/**
 * One pod's side of the node's container runtime: the sandbox, the containers the runtime reported
 * (fed by container events, the evented PLEG), the starts in flight (container-starter.ts) and the
 * kills in progress (hooks/container-killer.ts). Operations run in the background and ask for a pod
 * sync when they finish, so a sync never waits for a pull, a start or a hook. Once `stopping` is set
 * no new container is created or started.
 */
import { KubeletLabels, type ContainerEventType, type ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import { sandboxConfig } from './container-config.js';
import { ContainerStarter, StartFailure } from './container-starter.js';
import { ContainerKiller } from './hooks/container-killer.js';
import type { PodAction } from './pod-actions.js';
import type { ContainerInfo, EntryRole } from './pod-view.js';
import type { WorkerContext } from './worker-context.js';
import type { Container, Pod } from '../../api/core/index.js';

/** What the runtime knows of a container; probes add readiness and the rest. */
export type RuntimeInfo = Omit<ContainerInfo, 'ready' | 'started' | 'probeFailure'>;

export class PodRuntime {
  readonly records = new Map<string, CriContainerStatus>();
  readonly busy = new Set<string>();
  /** Containers killed because their spec changed, until their next attempt's start is over (§23). */
  private readonly replacing = new Set<string>();
  sandbox?: { id: string; ip?: string; ready: boolean };
  sandboxBusy = false;
  stopping = false;
  readonly killer: ContainerKiller;
  private readonly starter: ContainerStarter;
  private readonly stopDeadlines = new Map<string, number>();

  constructor(private readonly ctx: WorkerContext, private readonly pod: () => Pod) {
    const event = (type: 'Normal' | 'Warning', reason: string, message: string) => {
      ctx.events.event({ apiVersion: 'v1', kind: 'Pod', metadata: this.pod().metadata }, type, reason, message);
    };
    this.starter = new ContainerStarter(ctx, { pod, sandbox: () => this.sandbox, stopping: () => this.stopping, event });
    this.killer = new ContainerKiller({
      clock: ctx.clock, pod, event,
      isRunning: (id) => this.records.get(id)?.state === 'CONTAINER_RUNNING',
      isExited: (id) => (this.records.get(id)?.state ?? 'CONTAINER_EXITED') === 'CONTAINER_EXITED',
      stop: (id, timeoutSeconds) => this.stop(id, timeoutSeconds),
    });
  }

  private wake(): void {
    const { namespace, name } = this.pod().metadata;
    this.ctx.enqueue(namespace ?? 'default', name!);
  }

  /**
   * Takes up what the runtime already runs for this pod (the kubelet restarted, the runtime kept its
   * state): the newest sandbox and its containers. Records that events delivered meanwhile win.
   */
  async adopt(): Promise<void> {
    const rt = this.ctx.runtime;
    const sandboxes = await rt.listPodSandbox({ labelSelector: { [KubeletLabels.podUid]: this.pod().metadata.uid! } });
    const newest = sandboxes.sort((a, b) => b.createdAt - a.createdAt)[0];
    if (!newest || this.sandbox) return;
    const status = await rt.podSandboxStatus(newest.id);
    this.sandbox = { id: newest.id, ip: status.network?.ip, ready: newest.state === 'SANDBOX_READY' };
    for (const c of await rt.listContainers({ podSandboxId: newest.id })) {
      if (!this.records.has(c.id)) this.records.set(c.id, await rt.containerStatus(c.id));
    }
  }

  observe(status: CriContainerStatus, type: ContainerEventType): void {
    if (type === 'CONTAINER_DELETED_EVENT') {
      this.records.delete(status.id);
      this.killer.forget(status.id);
      this.starter.postStart.delete(status.id);
      return;
    }
    this.records.set(status.id, status);
    if (type === 'CONTAINER_STOPPED_EVENT') this.starter.exited(status.id);
  }

  /** Per container name: latest and previous attempts, in-flight flag, start failures, hook state. */
  containerInfos(): Map<string, RuntimeInfo> {
    const byName = new Map<string, CriContainerStatus[]>();
    for (const r of this.records.values()) {
      const attempts = byName.get(r.metadata.name);
      if (attempts) attempts.push(r);
      else byName.set(r.metadata.name, [r]);
    }
    const out = new Map<string, RuntimeInfo>();
    const { pullErrors, configErrors, postStart } = this.starter;
    for (const names of [this.busy, pullErrors.keys(), configErrors.keys()]) for (const name of names) if (!byName.has(name)) byName.set(name, []);
    for (const [name, attempts] of byName) {
      if (attempts.length > 1) attempts.sort((a, b) => b.metadata.attempt - a.metadata.attempt);
      const latest = attempts[0];
      out.set(name, {
        latest, previous: attempts[1], busy: this.busy.has(name), pullError: pullErrors.get(name), configError: configErrors.get(name),
        postStart: latest && postStart.get(latest.id), restartRequested: !!latest && this.killer.restartAfterExit.has(latest.id),
        replacing: this.replacing.has(name) && !this.stopping,
      });
      // keep one dead attempt for lastState; older ones are garbage (kubelet's container GC)
      for (let i = 2; i < attempts.length; i++) void this.ctx.runtime.removeContainer(attempts[i].id).catch(() => undefined);
    }
    return out;
  }

  execute(actions: PodAction[]): void {
    for (const a of actions) {
      if (a.type === 'createSandbox') this.createSandbox();
      else if (a.type === 'kill') {
        if (a.replace) this.replacing.add(a.container.name);
        this.killer.kill(a);
      }
      else this.launch(a.container, a.role, a.attempt);
    }
  }

  /** A ConfigMap or Secret of the pod's namespace changed; true if a container was waiting on one. */
  configChanged(): boolean {
    return this.starter.retryConfigNow();
  }

  private createSandbox(): void {
    if (this.sandboxBusy || this.stopping) return;
    this.sandboxBusy = true;
    void (async () => {
      const id = await this.ctx.runtime.runPodSandbox(sandboxConfig(this.pod()));
      const status = await this.ctx.runtime.podSandboxStatus(id);
      this.sandbox = { id, ip: status.network?.ip, ready: true };
    })().catch((e: unknown) => this.ctx.log.error({ err: e }, 'RunPodSandbox failed'))
      .finally(() => { this.sandboxBusy = false; this.wake(); });
  }

  /** SIGTERM with a deadline; a repeated stop only matters when it brings the deadline forward. */
  private stop(containerId: string, timeoutSeconds: number): void {
    const deadline = this.ctx.clock.now() + timeoutSeconds * 1000;
    if ((this.stopDeadlines.get(containerId) ?? Infinity) <= deadline) return;
    this.stopDeadlines.set(containerId, deadline);
    void this.ctx.runtime.stopContainer(containerId, timeoutSeconds)
      .catch((e: unknown) => this.ctx.log.debug({ err: e, containerId }, 'StopContainer failed'))
      .finally(() => this.wake());
  }

  private launch(container: Container, role: EntryRole, attempt: number): void {
    if (this.busy.has(container.name) || this.stopping) return;
    // A container whose behaviour cannot be worked out (a bad simulate-* annotation) is not created:
    // CreateContainerConfigError until the pod changes (no wake: nothing else can fix it).
    const resolved = this.ctx.behaviour.container(this.pod(), container, role === 'ephemeral' ? 'main' : role);
    if ('error' in resolved) {
      this.replacing.delete(container.name);
      this.starter.configErrors.set(container.name, { message: resolved.error, retryAt: 0, failures: 1 });
      return;
    }
    this.busy.add(container.name);
    this.ctx.log.debug({ container: container.name, behaviour: resolved.behaviour }, 'starting container');
    void this.starter.start(container, resolved.behaviour, attempt)
      .catch((e: unknown) => { if (!(e instanceof StartFailure)) this.ctx.log.error({ err: e, container: container.name }, 'starting container failed'); })
      .finally(() => { this.busy.delete(container.name); this.replacing.delete(container.name); this.wake(); });
  }

  /** Kills everything at once and removes the sandbox (the pod is gone from the API). */
  async teardown(): Promise<void> {
    this.stopping = true;
    this.starter.abortAll();
    if (!this.sandbox) return;
    await this.ctx.runtime.removePodSandbox(this.sandbox.id).catch(() => undefined);
    this.sandbox = undefined;
  }

  /** Stops the sandbox (releases its IP) once its containers are done; keeps their records. */
  async stopSandbox(): Promise<void> {
    if (!this.sandbox?.ready) return;
    await this.ctx.runtime.stopPodSandbox(this.sandbox.id);
    this.sandbox.ready = false;
  }

  /** No operation in flight and every container exited. */
  quiet(): boolean {
    return this.busy.size === 0 && !this.sandboxBusy && [...this.records.values()].every((r) => r.state === 'CONTAINER_EXITED');
  }
}
