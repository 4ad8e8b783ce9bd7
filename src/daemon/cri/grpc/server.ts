/**
 * serveCri: a runtime (the fake or any other implementation of the TS interfaces) as a real CRI v1
 * endpoint, runtime.v1.RuntimeService and runtime.v1.ImageService on a unix socket, so crictl or a
 * real kubelet can talk to it (docs/design/cri.md §4).
 */
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import type { ImageService, RuntimeService } from '../services.js';
import { encodeContainerEvent, type Wire } from './messages.js';
import { imageMethods, runtimeMethods, type UnaryMethod } from './methods.js';
import { criProto } from './proto.js';
import { removeStaleSocket, usableSocketPath } from './socket-path.js';
import { toGrpcStatus } from './status-codes.js';

export interface CriServer {
  /** The socket bound: the path asked for, or its short stand-in when that was too long (socket-path.ts). */
  readonly socketPath: string;
  /** Ends open event streams, stops serving and removes the socket file. */
  close(): Promise<void>;
}

export async function serveCri(runtime: RuntimeService & ImageService, socketPath: string): Promise<CriServer> {
  const { RuntimeService: runtimeService, ImageService: imageService } = criProto();
  const eventStreams = new Set<() => void>();
  const server = new grpc.Server();
  server.addService(runtimeService.service, implement(runtimeService.service, runtimeMethods(runtime), {
    GetContainerEvents: containerEvents(runtime, eventStreams),
  }));
  server.addService(imageService.service, implement(imageService.service, imageMethods(runtime), {}));

  const bound = usableSocketPath(socketPath);
  await removeStaleSocket(bound);
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix:${bound}`, grpc.ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve()));
  });
  return {
    socketPath: bound,
    async close() {
      for (const end of [...eventStreams]) end();
      // Force: an event stream or a StopContainer waiting on the runtime must not hold the node's removal.
      server.forceShutdown();
      await rm(bound, { force: true });
    },
  };
}

/** Every method of the service: the unary ones given, the streams given, UNIMPLEMENTED for the rest. */
function implement(
  service: grpc.ServiceDefinition, unary: Record<string, UnaryMethod>, streams: Record<string, grpc.handleServerStreamingCall<Wire, Wire>>,
): grpc.UntypedServiceImplementation {
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(service)) {
    const impl = unary[name];
    if (impl) handlers[name] = answer(impl);
    else if (streams[name]) handlers[name] = streams[name];
    else handlers[name] = unimplemented(method);
  }
  return handlers;
}

function answer(method: UnaryMethod): grpc.handleUnaryCall<Wire, Wire> {
  return (call, callback) => {
    method(call.request).then((response) => callback(null, response), (error: unknown) => callback(toGrpcStatus(error)));
  };
}

function unimplemented(method: grpc.MethodDefinition<unknown, unknown>): grpc.UntypedHandleCall {
  const status = { code: grpc.status.UNIMPLEMENTED, details: `${method.path} is not implemented by the kruise-ts simulated runtime` };
  if (!method.requestStream && !method.responseStream) return (_call: unknown, callback: grpc.sendUnaryData<Wire>) => callback(status);
  return (call: grpc.ServerWritableStream<Wire, Wire>) => call.emit('error', status);
}

/**
 * GetContainerEvents: one runtime subscription per open stream. Headers go out at once, so a client
 * that saw them knows it is subscribed and misses no event that happens afterwards.
 */
function containerEvents(runtime: RuntimeService, open: Set<() => void>): grpc.handleServerStreamingCall<Wire, Wire> {
  return (call) => {
    const unsubscribe = runtime.getContainerEvents((event) => call.write(encodeContainerEvent(event)));
    const end = () => {
      if (!open.delete(end)) return;
      unsubscribe();
      call.end();
    };
    open.add(end);
    call.on('cancelled', end);
    call.on('close', end);
    call.sendMetadata(new grpc.Metadata());
  };
}
