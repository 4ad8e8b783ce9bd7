/**
 * connectCri: the TS RuntimeService and ImageService over gRPC, so code written against the
 * interfaces can drive any CRI socket: a simulated node's (server.ts) or a real containerd's.
 */
import * as grpc from '@grpc/grpc-js';
import type { ImageService, RuntimeService } from '../services.js';
import {
  decodeContainer, decodeContainerEvent, decodeContainerStatus, decodeImage, decodePodSandbox, decodePodSandboxStatus,
  decodeVersion, encodeContainerFilter, encodePodSandboxFilter, int64, type Wire,
} from './messages.js';
import { criProto } from './proto.js';
import { usableSocketPath } from './socket-path.js';
import { fromGrpcError } from './status-codes.js';

export type CriClient = RuntimeService & ImageService & {
  /** Closes the channel; open event subscriptions end with it. */
  close(): void;
};

type UnaryCall = (request: Wire, callback: (error: grpc.ServiceError | null, response: Wire) => void) => grpc.ClientUnaryCall;

/** Dials lazily: the first call connects (and fails with Unavailable when nothing listens). */
export function connectCri(socketPath: string): CriClient {
  const { RuntimeService: RuntimeClient, ImageService: ImageClient } = criProto();
  const address = `unix:${usableSocketPath(socketPath)}`;
  const runtimeClient = new RuntimeClient(address, grpc.credentials.createInsecure());
  // One channel for both services, as the kubelet shares one connection per endpoint.
  const imageClient = new ImageClient(address, grpc.credentials.createInsecure(), { channelOverride: runtimeClient.getChannel() });
  const rt = (method: string, request: Wire = {}) => call(runtimeClient, method, request);
  const img = (method: string, request: Wire = {}) => call(imageClient, method, request);

  return {
    version: async () => decodeVersion(await rt('Version', { version: 'v1' })),
    runPodSandbox: async (config, runtimeHandler) => (await rt('RunPodSandbox', { config, runtimeHandler })).podSandboxId,
    stopPodSandbox: async (podSandboxId) => { await rt('StopPodSandbox', { podSandboxId }); },
    removePodSandbox: async (podSandboxId) => { await rt('RemovePodSandbox', { podSandboxId }); },
    podSandboxStatus: async (podSandboxId) => decodePodSandboxStatus((await rt('PodSandboxStatus', { podSandboxId })).status),
    listPodSandbox: async (filter) => (await rt('ListPodSandbox', { filter: encodePodSandboxFilter(filter) })).items.map(decodePodSandbox),
    createContainer: async (podSandboxId, config, sandboxConfig) =>
      (await rt('CreateContainer', { podSandboxId, config, sandboxConfig })).containerId,
    startContainer: async (containerId) => { await rt('StartContainer', { containerId }); },
    stopContainer: async (containerId, timeoutSeconds) => { await rt('StopContainer', { containerId, timeout: int64(timeoutSeconds) }); },
    removeContainer: async (containerId) => { await rt('RemoveContainer', { containerId }); },
    listContainers: async (filter) => (await rt('ListContainers', { filter: encodeContainerFilter(filter) })).containers.map(decodeContainer),
    containerStatus: async (containerId) => decodeContainerStatus((await rt('ContainerStatus', { containerId })).status),
    updateRuntimeConfig: async (runtimeConfig) => { await rt('UpdateRuntimeConfig', { runtimeConfig }); },
    getContainerEvents: (listener) => subscribe(runtimeClient, listener),
    execSync: async (containerId, cmd, timeoutSeconds) => {
      const r = await rt('ExecSync', { containerId, cmd, timeout: int64(timeoutSeconds) });
      return { stdout: new Uint8Array(r.stdout), stderr: new Uint8Array(r.stderr), exitCode: r.exitCode };
    },
    pullImage: async (image, auth, sandboxConfig) => (await img('PullImage', { image, auth, sandboxConfig })).imageRef,
    listImages: async (filter) => (await img('ListImages', { filter })).images.map(decodeImage),
    imageStatus: async (image) => {
      const { image: found } = await img('ImageStatus', { image });
      return found ? decodeImage(found) : undefined;
    },
    removeImage: async (image) => { await img('RemoveImage', { image }); },
    close: () => runtimeClient.close(),
  };
}

function call(client: grpc.Client, method: string, request: Wire): Promise<Wire> {
  const unary = (client as unknown as Record<string, UnaryCall>)[method].bind(client);
  return new Promise((resolve, reject) => {
    unary(request, (error, response) => (error ? reject(fromGrpcError(error)) : resolve(response)));
  });
}

/** A GetContainerEvents stream feeding `listener`; the returned function cancels it. */
function subscribe(client: grpc.Client, listener: Parameters<RuntimeService['getContainerEvents']>[0]): () => void {
  const stream = (client as unknown as Record<string, (request: Wire) => grpc.ClientReadableStream<Wire>>).GetContainerEvents.call(client, {});
  stream.on('data', (event: Wire) => listener(decodeContainerEvent(event)));
  // The stream ends with an error when cancelled or when the runtime goes away; either way it is over.
  stream.on('error', () => undefined);
  return () => stream.cancel();
}
