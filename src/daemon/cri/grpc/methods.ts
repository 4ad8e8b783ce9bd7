/**
 * The unary CRI methods the gRPC server answers, keyed by their name in api.proto: each decodes its
 * request into the shapes of types.ts, calls the runtime and encodes the answer. GetContainerEvents
 * (a stream) lives in server.ts; methods missing here answer UNIMPLEMENTED.
 */
import type { ImageService, RuntimeService } from '../services.js';
import type { Image } from '../types.js';
import {
  decodeAuthConfig, decodeContainerConfig, decodeContainerFilter, decodeImageFilter, decodeImageSpec, decodePodSandboxConfig,
  decodePodSandboxFilter, decodeRuntimeConfig, encodeContainer, encodeContainerStatus, encodeImage, encodePodSandbox, int64,
  type Wire,
} from './messages.js';

export type UnaryMethod = (request: Wire) => Promise<Wire>;

const ready = (type: string) => ({ type, status: true, reason: '', message: '' });

export function runtimeMethods(runtime: RuntimeService): Record<string, UnaryMethod> {
  return {
    Version: () => runtime.version(),
    RunPodSandbox: async (r) => ({ podSandboxId: await runtime.runPodSandbox(decodePodSandboxConfig(r.config), r.runtimeHandler || undefined) }),
    StopPodSandbox: async (r) => { await runtime.stopPodSandbox(r.podSandboxId); return {}; },
    RemovePodSandbox: async (r) => { await runtime.removePodSandbox(r.podSandboxId); return {}; },
    PodSandboxStatus: async (r) => ({ status: encodePodSandbox(await runtime.podSandboxStatus(r.podSandboxId)), info: {} }),
    ListPodSandbox: async (r) => ({ items: (await runtime.listPodSandbox(decodePodSandboxFilter(r.filter))).map(encodePodSandbox) }),
    CreateContainer: async (r) => ({
      containerId: await runtime.createContainer(r.podSandboxId, decodeContainerConfig(r.config), decodePodSandboxConfig(r.sandboxConfig)),
    }),
    StartContainer: async (r) => { await runtime.startContainer(r.containerId); return {}; },
    StopContainer: async (r) => { await runtime.stopContainer(r.containerId, Number(r.timeout)); return {}; },
    RemoveContainer: async (r) => { await runtime.removeContainer(r.containerId); return {}; },
    ListContainers: async (r) => ({ containers: (await runtime.listContainers(decodeContainerFilter(r.filter))).map(encodeContainer) }),
    ContainerStatus: async (r) => ({ status: encodeContainerStatus(await runtime.containerStatus(r.containerId)), info: {} }),
    UpdateRuntimeConfig: async (r) => { await runtime.updateRuntimeConfig(decodeRuntimeConfig(r.runtimeConfig)); return {}; },
    // The simulated containers run no processes: without an execSync of its own, every command
    // "succeeds" silently, which is what exec probes of a healthy container see.
    ExecSync: async (r) => (runtime.execSync
      ? runtime.execSync(r.containerId, r.cmd, Number(r.timeout))
      : { stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: 0 }),
    // crictl and the kubelet ask before anything else; an in-process runtime is always up.
    Status: async () => ({ status: { conditions: [ready('RuntimeReady'), ready('NetworkReady')] }, info: {} }),
  };
}

export function imageMethods(images: ImageService): Record<string, UnaryMethod> {
  return {
    PullImage: async (r) => ({
      imageRef: await images.pullImage(decodeImageSpec(r.image), decodeAuthConfig(r.auth), r.sandboxConfig ? decodePodSandboxConfig(r.sandboxConfig) : undefined),
    }),
    ListImages: async (r) => ({ images: (await images.listImages(decodeImageFilter(r.filter))).map(encodeImage) }),
    ImageStatus: async (r) => {
      const image = await images.imageStatus(decodeImageSpec(r.image));
      return { image: image && encodeImage(image), info: {} };
    },
    RemoveImage: async (r) => { await images.removeImage(decodeImageSpec(r.image)); return {}; },
    ImageFsInfo: async () => ({ imageFilesystems: [imageFsUsage(await images.listImages())], containerFilesystems: [] }),
  };
}

/** The image filesystem as the kubelet's image GC reads it: containerd's snapshotter, the images' sizes. */
function imageFsUsage(all: Image[]): Wire {
  return {
    timestamp: int64(Date.now() * 1_000_000),
    fsId: { mountpoint: '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs' },
    usedBytes: { value: int64(all.reduce((sum, i) => sum + i.size, 0)) },
    inodesUsed: { value: int64(all.length) },
  };
}
