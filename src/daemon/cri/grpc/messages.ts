/**
 * CRI messages between the shapes of types.ts and what @grpc/proto-loader reads and writes (with
 * proto.ts's options). Writing, a TS object goes out nearly as it is: field names already match,
 * unknown fields are ignored, and only int64s (to decimal strings), enum wrappers of filters and
 * bytes need care. Reading, every field arrives with its proto3 default; an optional field of the
 * TS shape is left out when it holds that default ('' / {} / [] / false / null), since proto3
 * cannot tell "unset" from "empty" (docs/design/cri.md §3).
 */
import type {
  AuthConfig, Container, ContainerConfig, ContainerEventResponse, ContainerFilter, ContainerMetadata, ContainerStatus,
  Image, ImageFilter, ImageSpec, PodSandbox, PodSandboxConfig, PodSandboxFilter, PodSandboxMetadata, PodSandboxStatus,
  RuntimeConfig, VersionResponse,
} from '../types.js';

/** A decoded message: proto-loader gives untyped objects, and this file is the one place reading them. */
export type Wire = any;

/** int64/uint64 out: a decimal string keeps all 64 bits (a ns timestamp is past 2^53). */
export const int64 = (n: number): string => BigInt(Math.trunc(n)).toString();
/** int64 in: a JS number (ns timestamps then keep ~256 ns, as types.ts accepts). */
const num = (s: string | number | null | undefined): number => Number(s ?? 0);

const text = (s: string | undefined): string | undefined => s || undefined;
const labels = (m: Record<string, string> | null | undefined): Record<string, string> => ({ ...m });
const optionalLabels = (m: Record<string, string> | null | undefined) => (m && Object.keys(m).length > 0 ? { ...m } : undefined);
const optionalList = <T>(list: T[] | null | undefined): T[] | undefined => (list && list.length > 0 ? [...list] : undefined);

/** Drops keys whose value is undefined, so a decoded object equals one built without them. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ---------------------------------------------------------------------------------- writing
export const encodeContainerFilter = (f?: ContainerFilter): Wire => f && { ...f, state: f.state && { state: f.state } };
export const encodePodSandboxFilter = (f?: PodSandboxFilter): Wire => f && { ...f, state: f.state && { state: f.state } };
export const encodeImage = (i: Image): Wire => ({ ...i, size: int64(i.size) });
export const encodePodSandbox = (s: PodSandbox): Wire => ({ ...s, createdAt: int64(s.createdAt) });
export const encodeContainer = (c: Container): Wire => ({ ...c, createdAt: int64(c.createdAt) });
export const encodeContainerStatus = (c: ContainerStatus): Wire =>
  ({ ...c, createdAt: int64(c.createdAt), startedAt: int64(c.startedAt), finishedAt: int64(c.finishedAt) });
export const encodeContainerEvent = (e: ContainerEventResponse): Wire => ({
  ...e, createdAt: int64(e.createdAt),
  podSandboxStatus: e.podSandboxStatus && encodePodSandbox(e.podSandboxStatus),
  containersStatuses: e.containersStatuses.map(encodeContainerStatus),
});

// ---------------------------------------------------------------------------------- reading
export const decodeVersion = (w: Wire): VersionResponse =>
  ({ version: w.version, runtimeName: w.runtimeName, runtimeVersion: w.runtimeVersion, runtimeApiVersion: w.runtimeApiVersion });

export const decodeImageSpec = (w: Wire): ImageSpec => compact({ image: w?.image ?? '', annotations: optionalLabels(w?.annotations) });

export const decodeAuthConfig = (w: Wire): AuthConfig | undefined => w && compact({
  username: text(w.username), password: text(w.password), auth: text(w.auth), serverAddress: text(w.serverAddress),
  identityToken: text(w.identityToken), registryToken: text(w.registryToken),
});

const decodeSandboxMetadata = (w: Wire): PodSandboxMetadata =>
  ({ name: w?.name ?? '', uid: w?.uid ?? '', namespace: w?.namespace ?? '', attempt: w?.attempt ?? 0 });
const decodeContainerMetadata = (w: Wire): ContainerMetadata => ({ name: w?.name ?? '', attempt: w?.attempt ?? 0 });

export const decodePodSandboxConfig = (w: Wire): PodSandboxConfig => compact({
  metadata: decodeSandboxMetadata(w?.metadata), hostname: text(w?.hostname), logDirectory: text(w?.logDirectory),
  labels: optionalLabels(w?.labels), annotations: optionalLabels(w?.annotations),
});

export const decodeContainerConfig = (w: Wire): ContainerConfig => compact({
  metadata: decodeContainerMetadata(w?.metadata), image: decodeImageSpec(w?.image),
  command: optionalList<string>(w?.command), args: optionalList<string>(w?.args), workingDir: text(w?.workingDir),
  envs: optionalList<Wire>(w?.envs)?.map((kv: Wire) => ({ key: kv.key, value: kv.value })),
  labels: optionalLabels(w?.labels), annotations: optionalLabels(w?.annotations),
});

export const decodePodSandboxFilter = (w: Wire): PodSandboxFilter | undefined =>
  w && compact({ id: text(w.id), state: w.state?.state, labelSelector: optionalLabels(w.labelSelector) });
export const decodeContainerFilter = (w: Wire): ContainerFilter | undefined => w && compact({
  id: text(w.id), state: w.state?.state, podSandboxId: text(w.podSandboxId), labelSelector: optionalLabels(w.labelSelector),
});
export const decodeImageFilter = (w: Wire): ImageFilter | undefined => (w?.image ? { image: decodeImageSpec(w.image) } : undefined);
export const decodeRuntimeConfig = (w: Wire): RuntimeConfig =>
  compact({ networkConfig: w?.networkConfig ? { podCidr: w.networkConfig.podCidr } : undefined });

export const decodeImage = (w: Wire): Image => compact({
  id: w.id, repoTags: [...w.repoTags], repoDigests: [...w.repoDigests], size: num(w.size), pinned: w.pinned || undefined,
});

export const decodePodSandbox = (w: Wire): PodSandbox => compact({
  id: w.id, metadata: decodeSandboxMetadata(w.metadata), state: w.state, createdAt: num(w.createdAt),
  labels: labels(w.labels), annotations: labels(w.annotations), runtimeHandler: text(w.runtimeHandler),
});

export const decodePodSandboxStatus = (w: Wire): PodSandboxStatus => compact({
  ...decodePodSandbox(w),
  network: w.network ? { ip: w.network.ip, additionalIps: w.network.additionalIps.map((a: Wire) => ({ ip: a.ip })) } : undefined,
});

export const decodeContainer = (w: Wire): Container => ({
  id: w.id, podSandboxId: w.podSandboxId, metadata: decodeContainerMetadata(w.metadata), image: decodeImageSpec(w.image),
  imageRef: w.imageRef, state: w.state, createdAt: num(w.createdAt), labels: labels(w.labels), annotations: labels(w.annotations),
});

export const decodeContainerStatus = (w: Wire): ContainerStatus => ({
  id: w.id, metadata: decodeContainerMetadata(w.metadata), image: decodeImageSpec(w.image), imageRef: w.imageRef,
  state: w.state, createdAt: num(w.createdAt), startedAt: num(w.startedAt), finishedAt: num(w.finishedAt),
  exitCode: w.exitCode, reason: w.reason, message: w.message, labels: labels(w.labels), annotations: labels(w.annotations),
});

export const decodeContainerEvent = (w: Wire): ContainerEventResponse => compact({
  containerId: w.containerId, containerEventType: w.containerEventType, createdAt: num(w.createdAt),
  podSandboxStatus: w.podSandboxStatus ? decodePodSandboxStatus(w.podSandboxStatus) : undefined,
  containersStatuses: w.containersStatuses.map(decodeContainerStatus),
});
