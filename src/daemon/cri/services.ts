/**
 * The two CRI services (runtime/v1 ImageService and RuntimeService) as async interfaces. The
 * simulated kubelet and the kruise daemon only talk to a runtime through these, so an in-memory fake
 * and the gRPC adapter (grpc/client.ts, any CRI socket) are interchangeable. Errors are `CriError`s
 * carrying the gRPC status code name and a message that reads like the runtime's status message.
 */
import type {
  AuthConfig, Container, ContainerConfig, ContainerEventResponse, ContainerFilter, ContainerStatus, ExecSyncResponse,
  Image, ImageFilter, ImageSpec, PodSandbox, PodSandboxConfig, PodSandboxFilter, PodSandboxStatus, RuntimeConfig,
  VersionResponse,
} from './types.js';

export interface ImageService {
  /** Blocks until the image is present; returns its image ref (`sha256:<id>`). */
  pullImage(image: ImageSpec, auth?: AuthConfig, sandboxConfig?: PodSandboxConfig): Promise<string>;
  listImages(filter?: ImageFilter): Promise<Image[]>;
  /** `undefined` when the image is not present (the proto's empty `image` field). */
  imageStatus(image: ImageSpec): Promise<Image | undefined>;
  removeImage(image: ImageSpec): Promise<void>;
}

export interface RuntimeService {
  version(): Promise<VersionResponse>;
  /** Creates the sandbox and its network; returns the sandbox id. */
  runPodSandbox(config: PodSandboxConfig, runtimeHandler?: string): Promise<string>;
  /** Kills every container of the sandbox and tears down its network (idempotent). */
  stopPodSandbox(podSandboxId: string): Promise<void>;
  /** Removes the sandbox and its containers (idempotent). */
  removePodSandbox(podSandboxId: string): Promise<void>;
  podSandboxStatus(podSandboxId: string): Promise<PodSandboxStatus>;
  listPodSandbox(filter?: PodSandboxFilter): Promise<PodSandbox[]>;
  /** Returns the new container's id (64 hex digits; the kubelet shows it as `<runtimeName>://<id>`). */
  createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string>;
  /** Blocks until the container runs. */
  startContainer(containerId: string): Promise<void>;
  /** SIGTERM, then SIGKILL after `timeoutSeconds`; resolves once the container has exited. */
  stopContainer(containerId: string, timeoutSeconds: number): Promise<void>;
  removeContainer(containerId: string): Promise<void>;
  listContainers(filter?: ContainerFilter): Promise<Container[]>;
  containerStatus(containerId: string): Promise<ContainerStatus>;
  updateRuntimeConfig(config: RuntimeConfig): Promise<void>;
  /** GetContainerEvents: calls `listener` for every container lifecycle event; returns unsubscribe. */
  getContainerEvents(listener: (event: ContainerEventResponse) => void): () => void;
  /**
   * ExecSync: runs `cmd` in the container and waits up to `timeoutSeconds` (0: no limit). Optional: a
   * runtime without it has nothing to run, and the gRPC server then answers exit code 0, no output.
   */
  execSync?(containerId: string, cmd: string[], timeoutSeconds: number): Promise<ExecSyncResponse>;
}

export class CriError extends Error {
  /** gRPC status code name, e.g. `NotFound`, `FailedPrecondition`, `Unknown`. */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'CriError';
    this.code = code;
  }
}

export const isCriNotFound = (e: unknown): boolean => e instanceof CriError && e.code === 'NotFound';
