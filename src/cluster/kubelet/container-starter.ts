/**
 * Starting one container attempt, in kubelet's order (startContainer): pull the image per
 * imagePullPolicy (failures back off 10 s doubling to 5 min: ImagePullBackOff), build the environment
 * from ConfigMaps and Secrets (a missing one is CreateContainerConfigError, retried on the same
 * back-off or as soon as a ConfigMap or Secret of the namespace changes), create and start the
 * container, then run its postStart hook, which the start waits for (§15, §16).
 */
import { parseImage } from '../../daemon/cri/image-ref.js';
import type { KeyValue } from '../../daemon/cri/types.js';
import { sleep } from '../../machinery/clock.js';
import { containerEnv, ConfigError, refersToConfigObjects } from './config/container-env.js';
import { containerConfig, sandboxConfig } from './container-config.js';
import { hookFailureMessage, hookPlan } from './hooks/hook-plan.js';
import type { ContainerBehaviour } from './behaviour/container-behaviour.js';
import { pullWithCredentials } from './behaviour/pull-credentials.js';
import type { PostStartState } from './pod-view.js';
import type { WorkerContext } from './worker-context.js';
import type { Container, Pod } from '../../api/core/index.js';

/** A failed pull or config step: the start is over and its failure is recorded. */
export class StartFailure extends Error {}

interface Failure { message: string; retryAt: number; failures: number }

export interface StarterHost {
  pod(): Pod;
  sandbox(): { id: string; ip?: string; ready: boolean } | undefined;
  stopping(): boolean;
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

const backoffMs = (failures: number): number => Math.min(10_000 * 2 ** (failures - 1), 300_000);

export class ContainerStarter {
  readonly pullErrors = new Map<string, Failure>();
  readonly configErrors = new Map<string, Failure>();
  /** postStart hook state by container id. */
  readonly postStart = new Map<string, PostStartState>();
  private readonly exits = new Map<string, AbortController>();

  constructor(private readonly ctx: WorkerContext, private readonly host: StarterHost) {}

  async start(container: Container, behaviour: ContainerBehaviour, attempt: number): Promise<void> {
    const rt = this.ctx.runtime;
    await this.pull(container);
    const envs = await this.environment(container);
    const sandbox = this.host.sandbox();
    if (this.host.stopping() || !sandbox?.ready || !envs) return;
    const pod = this.host.pod();
    const config = containerConfig({ pod, container, behaviour, attempt, terminationDelayMs: this.ctx.terminationDelayMs, envs });
    const id = await rt.createContainer(sandbox.id, config, sandboxConfig(pod));
    if (this.host.stopping()) return;
    await rt.startContainer(id);
    await this.runPostStart(id, container);
  }

  /** The container exited: a postStart hook running in it ends. */
  exited(containerId: string): void {
    this.exits.get(containerId)?.abort();
  }

  /** The pod is torn down: every postStart hook ends. */
  abortAll(): void {
    for (const exit of this.exits.values()) exit.abort();
  }

  /** A ConfigMap or Secret changed: containers waiting on their environment retry now. */
  retryConfigNow(): boolean {
    for (const failure of this.configErrors.values()) failure.retryAt = 0;
    return this.configErrors.size > 0;
  }

  private async runPostStart(id: string, container: Container): Promise<void> {
    const plan = hookPlan(this.host.pod(), container, 'postStart');
    if (!plan) return;
    this.postStart.set(id, { state: 'running' });
    const exit = new AbortController();
    this.exits.set(id, exit);
    if (plan.durationMs > 0) await sleep(this.ctx.clock, plan.durationMs, exit.signal);
    this.exits.delete(id);
    if (!plan.fails || exit.signal.aborted) {
      this.postStart.set(id, { state: 'done', at: this.ctx.clock.now() });
      return;
    }
    this.postStart.set(id, { state: 'failed', message: hookFailureMessage(this.host.pod(), this.host.sandbox()?.ip ?? '', container, plan.handler) });
    // kubelet leaves the hook's output out of the event, so that secrets cannot leak through it
    this.host.event('Warning', 'FailedPostStartHook', 'PostStartHook failed');
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
      await pullWithCredentials(rt, this.ctx.client, this.host.pod(), image.image);
      this.pullErrors.delete(container.name);
    } catch (e) {
      this.fail(this.pullErrors, container.name, (e as Error).message);
    }
  }

  /** The environment, or a recorded CreateContainerConfigError; undefined once the kubelet stops. */
  private async environment(container: Container): Promise<KeyValue[] | undefined> {
    const pod = this.host.pod();
    if (!refersToConfigObjects(container)) return containerEnv(pod, container, { configMap: () => undefined, secret: () => undefined });
    const objects = await this.ctx.configSources.objects(pod.metadata.namespace ?? 'default');
    if (!objects) return undefined;
    try {
      const envs = containerEnv(this.host.pod(), container, objects);
      this.configErrors.delete(container.name);
      return envs;
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      this.host.event('Warning', 'Failed', `Error: ${e.message}`);
      this.fail(this.configErrors, container.name, e.message);
    }
  }

  private fail(failures: Map<string, Failure>, name: string, message: string): never {
    const count = (failures.get(name)?.failures ?? 0) + 1;
    failures.set(name, { message, retryAt: this.ctx.clock.now() + backoffMs(count), failures: count });
    throw new StartFailure(message);
  }
}
