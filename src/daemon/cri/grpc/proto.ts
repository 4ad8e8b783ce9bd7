/**
 * The vendored CRI v1 definition (api.proto beside this file) loaded with @grpc/proto-loader: the
 * service definitions the server registers and the client constructors, decoded the way the
 * message mapping (messages.ts) expects them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';

/**
 * tsc copies no .proto files into dist/, so both src/ and dist/ builds read the one vendored file
 * from src/ (four levels up from this module is the package root either way).
 */
export const criProtoPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../src/daemon/cri/grpc/api.proto');

/**
 * How decoded messages look: camelCase field names (the proto's JSON names, as types.ts spells
 * them), int64 as decimal strings (nanosecond timestamps exceed 2^53), enums by name (the string
 * unions of types.ts), and every field present with its default so absent and empty read alike.
 */
export const criLoaderOptions: Options = { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true };

export interface CriProto {
  RuntimeService: grpc.ServiceClientConstructor;
  ImageService: grpc.ServiceClientConstructor;
}

let loaded: CriProto | undefined;

/** The two services of runtime.v1, loaded once per process. */
export function criProto(): CriProto {
  if (!loaded) {
    const root = grpc.loadPackageDefinition(loadSync(criProtoPath, criLoaderOptions)) as unknown as { runtime: { v1: CriProto } };
    loaded = { RuntimeService: root.runtime.v1.RuntimeService, ImageService: root.runtime.v1.ImageService };
  }
  return loaded;
}
