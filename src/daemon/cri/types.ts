/**
 * CRI v1 message shapes (k8s.io/cri-api runtime/v1/api.proto) as plain TypeScript, field names in
 * the proto's JSON (camelCase) spelling, so a gRPC adapter maps them one to one. Timestamps are
 * nanoseconds since the epoch as in the proto (a JS number keeps them to ~256 ns, plenty for
 * statuses written with second precision).
 */

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type ContainerEventType = 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';

export type Labels = Record<string, string>;

export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface ImageSpec {
  image: string;
  annotations?: Labels;
}

export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  serverAddress?: string;
  identityToken?: string;
  registryToken?: string;
}

export interface Image {
  /** `sha256:<hex>` (the image config digest). */
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  pinned?: boolean;
}

export interface ImageFilter {
  image?: ImageSpec;
}

export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  hostname?: string;
  logDirectory?: string;
  labels?: Labels;
  annotations?: Labels;
}

export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAt: number;
  labels: Labels;
  annotations: Labels;
  runtimeHandler?: string;
}

export interface PodSandboxNetworkStatus {
  ip: string;
  additionalIps: { ip: string }[];
}

export interface PodSandboxStatus extends PodSandbox {
  network?: PodSandboxNetworkStatus;
}

export interface PodSandboxFilter {
  id?: string;
  state?: PodSandboxState;
  labelSelector?: Labels;
}

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface KeyValue {
  key: string;
  value: string;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: ImageSpec;
  command?: string[];
  args?: string[];
  workingDir?: string;
  envs?: KeyValue[];
  labels?: Labels;
  annotations?: Labels;
}

export interface Container {
  id: string;
  podSandboxId: string;
  metadata: ContainerMetadata;
  image: ImageSpec;
  /** What the image resolved to: a repo digest (`docker.io/library/nginx@sha256:...`). */
  imageRef: string;
  state: ContainerState;
  createdAt: number;
  labels: Labels;
  annotations: Labels;
}

export interface ContainerStatus extends Omit<Container, 'podSandboxId'> {
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  /** `Completed`, `Error`, `OOMKilled`... once exited. */
  reason: string;
  message: string;
}

export interface ContainerFilter {
  id?: string;
  state?: ContainerState;
  podSandboxId?: string;
  labelSelector?: Labels;
}

export interface RuntimeConfig {
  networkConfig?: { podCidr: string };
}

/** GetContainerEvents stream element (the evented PLEG's input). */
export interface ContainerEventResponse {
  containerId: string;
  containerEventType: ContainerEventType;
  createdAt: number;
  podSandboxStatus?: PodSandboxStatus;
  containersStatuses: ContainerStatus[];
}

/** ExecSync's answer: the command's output (raw bytes, as on the wire) and exit code. */
export interface ExecSyncResponse {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number;
}

/** The kubelet's labels on sandboxes and containers (types.KubernetesPodUIDLabel and friends). */
export const KubeletLabels = {
  podName: 'io.kubernetes.pod.name',
  podNamespace: 'io.kubernetes.pod.namespace',
  podUid: 'io.kubernetes.pod.uid',
  containerName: 'io.kubernetes.container.name',
} as const;

/** The kubelet's annotations on containers. */
export const KubeletAnnotations = {
  restartCount: 'io.kubernetes.container.restartCount',
  hash: 'io.kubernetes.container.hash',
  terminationGracePeriod: 'io.kubernetes.pod.terminationGracePeriod',
  preStopHandler: 'io.kubernetes.container.preStopHandler',
  ports: 'io.kubernetes.container.ports',
} as const;
