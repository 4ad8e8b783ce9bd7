/**
 * createFakeRuntime: one simulated node's container runtime (image and runtime services sharing one
 * image store), for the simulated kubelet and for kruise-daemon tests.
 */
import { realClock, type Clock } from '../../machinery/clock.js';
import { FakeImageService, type RegistryFacts } from './fake-images.js';
import { FakeRuntimeService } from './fake-runtime-service.js';
import { readRuntimeState, RuntimeStateWriter } from './runtime-state-file.js';
import type { ImageService, RuntimeService } from './services.js';
import type { AuthConfig, ContainerConfig, ContainerStatus, ExecSyncResponse, Image, ImageSpec, Labels } from './types.js';

export interface FakeRuntimeOptions {
  clock?: Clock;
  /** Time one pull of an image takes (once per image per runtime). */
  pullDelayMs?: number;
  /** Time StartContainer takes before the container runs. */
  startDelayMs?: number;
  /** Time a container takes to exit after SIGTERM; default: it ignores SIGTERM and is killed at the timeout. */
  terminationDelayMs?: number;
  /** Initial pod CIDR for sandbox IPs (default containerd's 10.88.0.0/16); UpdateRuntimeConfig changes it. */
  podCidr?: string;
  /** Makes pulls of some images fail with the returned message. */
  pullError?: (image: string, auth?: AuthConfig) => string | undefined;
  /**
   * Keep the runtime's state (sandboxes, containers, IPs, images) in this file and take it up again
   * when created over an existing one: containers survive a restart of the process.
   */
  stateFile?: string;
  /** Digests, failures and credentials of the simulated registry. */
  registry?: RegistryFacts;
  /** What ExecSync answers in a container, by its kubelet labels (an outcome script; default: success). */
  execScript?: (labels: Labels) => string | undefined;
  /** What a command prints and exits with in a container without an exec script (default: fake-exec.ts). */
  exec?: (config: ContainerConfig, cmd: string[]) => { stdout: string; stderr: string; exitCode: number };
}

export interface FakeRuntime extends ImageService, RuntimeService {
  /** The container's process dies now (crash or OOM kill: pass reason `OOMKilled`). */
  killContainer(containerId: string, exitCode: number, reason?: string): void;
  /** Succeeds in a running container (no process runs; `env`/`printenv` print its environment) unless its exec script says otherwise; fails as containerd does otherwise. */
  execSync(containerId: string, cmd: string[], timeoutSeconds: number): Promise<ExecSyncResponse>;
  /** Pulls that really went to the simulated registry (shared and repeated pulls excluded). */
  pullCount(): number;
  /** The config a container was created with (its environment for exec), or undefined for an unknown id. */
  containerConfig(containerId: string): ContainerConfig | undefined;
  /** PullImage requests received, whether they pulled or not. */
  pullRequestCount(): number;
  /**
   * The runtime process goes away with its containers' state kept: timers stop, pending state is
   * written to the state file. A new runtime over the same file takes the containers up again.
   */
  close(): void;
}

export function createFakeRuntime(options: FakeRuntimeOptions = {}): FakeRuntime {
  for (const key of ['pullDelayMs', 'startDelayMs', 'terminationDelayMs'] as const) {
    const v = options[key];
    if (v !== undefined && !(v >= 0)) throw new Error(`createFakeRuntime: ${key} must be a non-negative number, got ${v}`);
  }
  const clock = options.clock ?? realClock;
  const previous = options.stateFile ? readRuntimeState(options.stateFile) : undefined;
  let writer: RuntimeStateWriter | undefined;
  const onStateChange = () => writer?.changed();
  const images = new FakeImageService({ clock, pullDelayMs: options.pullDelayMs, pullError: options.pullError, registry: options.registry, onStateChange });
  const runtime = new FakeRuntimeService(images, {
    clock, startDelayMs: options.startDelayMs, terminationDelayMs: options.terminationDelayMs, podCidr: options.podCidr, onStateChange, execScript: options.execScript, exec: options.exec,
  });
  if (previous) {
    images.restore(previous.images);
    runtime.restore(previous.runtime);
  }
  if (options.stateFile) writer = new RuntimeStateWriter(options.stateFile, () => ({ version: 1, runtime: runtime.snapshot(), images: images.snapshot() }));
  return {
    pullImage: (image: ImageSpec, auth?: AuthConfig) => images.pullImage(image, auth),
    listImages: (filter) => images.listImages(filter),
    imageStatus: (image: ImageSpec): Promise<Image | undefined> => images.imageStatus(image),
    removeImage: (image) => images.removeImage(image),
    version: () => runtime.version(),
    runPodSandbox: (config, handler) => runtime.runPodSandbox(config, handler),
    stopPodSandbox: (id) => runtime.stopPodSandbox(id),
    removePodSandbox: (id) => runtime.removePodSandbox(id),
    podSandboxStatus: (id) => runtime.podSandboxStatus(id),
    listPodSandbox: (filter) => runtime.listPodSandbox(filter),
    createContainer: (sandboxId, config) => runtime.createContainer(sandboxId, config),
    startContainer: (id) => runtime.startContainer(id),
    stopContainer: (id, timeout) => runtime.stopContainer(id, timeout),
    removeContainer: (id) => runtime.removeContainer(id),
    listContainers: (filter) => runtime.listContainers(filter),
    containerStatus: (id): Promise<ContainerStatus> => runtime.containerStatus(id),
    updateRuntimeConfig: (config) => runtime.updateRuntimeConfig(config),
    getContainerEvents: (listener) => runtime.getContainerEvents(listener),
    execSync: (id, cmd, timeout) => runtime.execSync(id, cmd, timeout),
    killContainer: (id, code, reason) => runtime.killContainer(id, code, reason),
    pullCount: () => images.pulls,
    containerConfig: (id) => runtime.containerConfig(id),
    pullRequestCount: () => images.pullRequests,
    close: () => { runtime.suspend(); writer?.flush(); },
  };
}
