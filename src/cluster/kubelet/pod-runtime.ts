/**
 * One pod's side of the node's container runtime: the sandbox, the containers the runtime reported
 * (fed by container events, the evented PLEG), and the CRI operations in flight. Operations run in
 * the background and ask for a pod sync when they finish, so a sync never waits for a pull or a
 * start. Once `stopping` is set no new container is created or started. A container whose
 * behaviour cannot be worked out (a bad simulate-* annotation) is not created: it keeps a config
 * error until the pod changes, as kubelet's CreateContainerConfigError.
 */
import { parseImage } from '../../daemon/cri/image-ref.js';
import { KubeletLabels, type ContainerEventType, type ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import type { ContainerBehaviour } from './behaviour/container-behaviour.js';
import { pullWithCredentials } from './behaviour/pull-credentials.js';
import { containerConfig, sandboxConfig } from './container-config.js';
import type { PodAction } from './pod-actions.js';
import type { ContainerInfo } from './pod-view.js';
import type { ContainerRole } from './simulate-annotations.js';
import type { WorkerContext } from './worker-context.js';
import type { Container, Pod } from '../../api/core/index.js';

class PullError extends Error {}

export class PodRuntime {
  readonly records = new Map<string, CriContainerStatus>();
  readonly busy = new Set<string>();
  readonly pullErrors = new Map<string, { message: string; retryAt: number; failures: number }>();
  readonly configErrors = new Map<string, string>();
  sandbox?: { id: string; ip?: string; ready: boolean };
  sandboxBusy = false;
  stopping = false;
  private readonly stopDeadlines = new Map<string, number>();

  constructor(private readonly ctx: WorkerContext, private readonly pod: () => Pod) {}

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
    if (type === 'CONTAINER_DELETED_EVENT') this.records.delete(status.id);
    else this.records.set(status.id, status);
  }

  /** Per container name: latest and previous attempts, in-flight flag, pull error. */
  containerInfos(): Map<string, Omit<ContainerInfo, 'ready'>> {
    const byName = new Map<string, CriContainerStatus[]>();
    for (const r of this.records.values()) byName.set(r.metadata.name, [...(byName.get(r.metadata.name) ?? []), r]);
    const out = new Map<string, Omit<ContainerInfo, 'ready'>>();
    for (const name of new Set([...byName.keys(), ...this.busy, ...this.pullErrors.keys(), ...this.configErrors.keys()])) {
      const attempts = (byName.get(name) ?? []).sort((a, b) => b.metadata.attempt - a.metadata.attempt);
      out.set(name, {
        latest: attempts[0], previous: attempts[1], busy: this.busy.has(name), pullError: this.pullErrors.get(name), configError: this.configErrors.get(name),
      });
      // keep one dead attempt for lastState; older ones are garbage (kubelet's container GC)
      for (const old of attempts.slice(2)) void this.ctx.runtime.removeContainer(old.id).catch(() => undefined);
    }
    return out;
  }

  execute(actions: PodAction[]): void {
    for (const a of actions) {
      if (a.type === 'createSandbox') this.createSandbox();
      else if (a.type === 'stop') this.stop(a.containerId, a.timeoutSeconds);
      else this.launch(a.container, a.role, a.attempt, a.type === 'replace' ? a : undefined);
    }
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
  stop(containerId: string, timeoutSeconds: number): void {
    const deadline = this.ctx.clock.now() + timeoutSeconds * 1000;
    if ((this.stopDeadlines.get(containerId) ?? Infinity) <= deadline) return;
    this.stopDeadlines.set(containerId, deadline);
    void this.ctx.runtime.stopContainer(containerId, timeoutSeconds)
      .catch((e: unknown) => this.ctx.log.debug({ err: e, containerId }, 'StopContainer failed'))
      .finally(() => this.wake());
  }

  private launch(container: Container, role: ContainerRole, attempt: number, replace?: { containerId: string; timeoutSeconds: number }): void {
    if (this.busy.has(container.name) || this.stopping) return;
    const resolved = this.ctx.behaviour.container(this.pod(), container, role);
    if ('error' in resolved) {
      this.configErrors.set(container.name, resolved.error); // no wake: only a change of the pod can fix it
      return;
    }
    this.configErrors.delete(container.name);
    this.busy.add(container.name);
    this.ctx.log.debug({ container: container.name, behaviour: resolved.behaviour }, 'starting container');
    void this.startContainer(container, resolved.behaviour, attempt, replace)
      .catch((e: unknown) => { if (!(e instanceof PullError)) this.ctx.log.error({ err: e, container: container.name }, 'starting container failed'); })
      .finally(() => { this.busy.delete(container.name); this.wake(); });
  }

  private async startContainer(container: Container, behaviour: ContainerBehaviour, attempt: number, replace?: { containerId: string; timeoutSeconds: number }): Promise<void> {
    const rt = this.ctx.runtime;
    if (replace) await rt.stopContainer(replace.containerId, replace.timeoutSeconds);
    if (this.stopping) return;
    await this.pull(container);
    if (this.stopping || !this.sandbox?.ready) return;
    const pod = this.pod();
    const config = containerConfig({ pod, container, behaviour, attempt, terminationDelayMs: this.ctx.terminationDelayMs });
    const id = await rt.createContainer(this.sandbox.id, config, sandboxConfig(pod));
    if (this.stopping) return;
    await rt.startContainer(id);
  }

  /**
   * Pulls per imagePullPolicy, offering the pod's pull secrets for the image's registry; failures
   * back off 10 s doubling to 5 min (ImagePullBackOff) and read as kubelet shows a CRI error.
   */
  private async pull(container: Container): Promise<void> {
    const rt = this.ctx.runtime;
    const image = { image: container.image ?? '' };
    const policy = container.imagePullPolicy ?? (parseImage(image.image).tag === 'latest' ? 'Always' : 'IfNotPresent');
    if (policy !== 'Always' && (await rt.imageStatus(image))) {
      this.pullErrors.delete(container.name);
      return;
    }
    try {
      if (policy === 'Never') throw new Error(`Container image "${container.image}" is not present with pull policy of Never`);
      await pullWithCredentials(this.ctx.runtime, this.ctx.client, this.pod(), image.image);
      this.pullErrors.delete(container.name);
    } catch (e) {
      const failures = (this.pullErrors.get(container.name)?.failures ?? 0) + 1;
      const retryAt = this.ctx.clock.now() + Math.min(10_000 * 2 ** (failures - 1), 300_000);
      this.pullErrors.set(container.name, { message: (e as Error).message, retryAt, failures });
      throw new PullError((e as Error).message);
    }
  }

  /** Kills everything at once and removes the sandbox (the pod is gone from the API). */
  async teardown(): Promise<void> {
    this.stopping = true;
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
