/**
 * Kubernetes protobuf request bodies (`Content-Type: application/vnd.kubernetes.protobuf`, sent by
 * client-go's typed clients: kubectl create/run/expose/drain ...) decoded into the JSON object the JSON
 * API would have received. The body is the magic `k8s\0` and a runtime.Unknown envelope
 * {typeMeta{apiVersion, kind}, raw, contentEncoding, contentType} whose raw is the typed object.
 */
import { errors } from '../../../machinery/errors.js';
import { messageForKind } from './descriptor.js';
import { decodeMessage } from './message-decoder.js';
import { forEachField, ProtobufError, utf8, WireType } from './wire-reader.js';

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

const MAGIC = Buffer.from('k8s\0', 'latin1');

export interface DecodedObject {
  apiVersion: string;
  kind: string;
  /** The object as JSON, `kind` and `apiVersion` first. */
  object: Record<string, unknown>;
}

/** True for `application/vnd.kubernetes.protobuf`, with or without parameters. */
export function isProtobufContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  return ct.split(';')[0].trim().toLowerCase() === PROTOBUF_CONTENT_TYPE;
}

/** Decodes a protobuf request body; throws StatusError 400 BadRequest when it is malformed or of an unknown kind. */
export function decodeProtobufObject(body: Buffer): DecodedObject {
  if (!body || body.length === 0) throw errors.badRequest('the body of the request was empty');
  try {
    return decodeEnvelope(body, 0);
  } catch (e) {
    if (e instanceof ProtobufError) throw errors.badRequest(`unable to decode protobuf request body: ${e.message}`);
    throw e;
  }
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

function decodeEnvelope(body: Uint8Array, depth: number): DecodedObject {
  if (body.length < MAGIC.length || !MAGIC.equals(body.subarray(0, MAGIC.length))) {
    throw new ProtobufError('the body does not start with the Kubernetes protobuf prefix "k8s\\x00"');
  }
  const env = readEnvelope(body.subarray(MAGIC.length));
  if (env.contentEncoding) throw new ProtobufError(`unsupported contentEncoding "${env.contentEncoding}"`);
  if (env.contentType && !isProtobufContentType(env.contentType)) {
    throw new ProtobufError(`unsupported embedded contentType "${env.contentType}"`);
  }
  if (!env.kind) throw errors.badRequest('Object \'Kind\' is missing in the protobuf request body');
  const message = messageForKind(env.apiVersion, env.kind);
  if (!message) {
    throw errors.badRequest(`no kind "${env.kind}" is registered for version "${env.apiVersion}" in the protobuf decoder`);
  }
  const embedded = (bytes: Uint8Array, level: number) => decodeEnvelope(bytes, level).object;
  const fields = decodeMessage(message, env.raw, embedded, depth) as Record<string, unknown>;
  return { apiVersion: env.apiVersion, kind: env.kind, object: { kind: env.kind, apiVersion: env.apiVersion, ...fields } };
}

/** runtime.Unknown: 1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType. */
function readEnvelope(bytes: Uint8Array): Envelope {
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  forEachField(bytes, (tag, reader) => {
    if (tag.number > 4 || tag.wireType !== WireType.Bytes) return reader.skip(tag.wireType);
    const value = reader.bytes();
    if (tag.number === 1) {
      forEachField(value, (t, r) => {
        if (t.wireType !== WireType.Bytes || t.number > 2) return r.skip(t.wireType);
        if (t.number === 1) env.apiVersion = utf8(r.bytes());
        else env.kind = utf8(r.bytes());
      });
    } else if (tag.number === 2) env.raw = value;
    else if (tag.number === 3) env.contentEncoding = utf8(value);
    else env.contentType = utf8(value);
  });
  return env;
}
