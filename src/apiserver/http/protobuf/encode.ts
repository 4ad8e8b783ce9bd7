/**
 * Kubernetes protobuf response bodies: an object of a built-in kind as `k8s\0` + runtime.Unknown
 * {typeMeta{apiVersion, kind}, raw, contentEncoding "", contentType ""}, and watch events as
 * length-prefixed metav1.WatchEvent frames (docs/design/performance.md §8).
 */
import { messageForKind } from './descriptor.js';
import { encodeMessage } from './message-encoder.js';
import { forEachField, utf8, WireType } from './wire-reader.js';
import { WireWriter } from './wire-writer.js';

export const PROTOBUF_WATCH_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

const MAGIC = Buffer.from('k8s\0', 'latin1');

interface TypedObject {
  apiVersion?: unknown;
  kind?: unknown;
}

/** The wire message of a response body, or undefined when it is not a built-in kind (custom resources, Tables). */
export function protobufMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { apiVersion, kind } = body as TypedObject;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  return kind === 'DeleteOptions' ? undefined : messageForKind(apiVersion, kind);
}

/** The protobuf body of a built-in object, or undefined when it has no wire message. */
export function encodeProtobufObject(body: unknown): Buffer | undefined {
  const message = protobufMessageOf(body);
  if (!message) return undefined;
  const w = new WireWriter();
  writeEnvelope(w, body as TypedObject, message);
  return w.finish();
}

function writeEnvelope(w: WireWriter, body: TypedObject, message: string): void {
  w.raw(MAGIC);
  const typeMeta = w.beginMessage(1);
  w.string(1, body.apiVersion as string);
  w.string(2, body.kind as string);
  w.endMessage(typeMeta);
  const raw = w.beginMessage(2);
  encodeMessage(w, message, body);
  w.endMessage(raw);
  w.string(3, '');
  w.string(4, '');
}

/**
 * One watch frame: a 4-byte big-endian length, then metav1.WatchEvent {1 type, 2 object RawExtension
 * {1 raw}} written bare (kube's stream serializer adds no envelope), its raw the object's full protobuf body.
 * Undefined when the object has no wire message.
 */
export function encodeWatchFrame(type: string, object: unknown): Buffer | undefined {
  const message = protobufMessageOf(object);
  if (!message) return undefined;
  const w = new WireWriter();
  w.raw(Buffer.alloc(4));
  w.string(1, type);
  const ext = w.beginMessage(2);
  const raw = w.beginMessage(1);
  writeEnvelope(w, object as TypedObject, message);
  w.endMessage(raw);
  w.endMessage(ext);
  const frame = w.finish();
  frame.writeUInt32BE(frame.length - 4, 0);
  return frame;
}

/** Reads the frames of a protobuf watch stream: [type, object body] pairs (for tests and clients). */
export function splitWatchFrames(stream: Buffer): Array<{ type: string; raw: Buffer }> {
  const out: Array<{ type: string; raw: Buffer }> = [];
  for (let at = 0; at + 4 <= stream.length;) {
    const length = stream.readUInt32BE(at);
    const event = stream.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    out.push(readWatchEvent(event));
  }
  return out;
}

function readWatchEvent(event: Buffer): { type: string; raw: Buffer } {
  let type = '';
  let raw = Buffer.alloc(0);
  forEachField(event, (tag, reader) => {
    if (tag.wireType !== WireType.Bytes) return reader.skip(tag.wireType);
    const value = reader.bytes();
    if (tag.number === 1) type = utf8(value);
    else if (tag.number === 2) {
      forEachField(value, (t, r) => {
        if (t.number === 1 && t.wireType === WireType.Bytes) raw = Buffer.from(r.bytes());
        else r.skip(t.wireType);
      });
    }
  });
  return { type, raw };
}
