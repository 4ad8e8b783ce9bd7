/**
 * A tiny protobuf encoder for tests: hand-built wire bytes the way client-go's generated marshalers lay
 * them out (every non-pointer scalar written, even when zero; pointers only when set).
 */

export function varint(value: number | bigint): Buffer {
  let n = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) byte |= 0x80;
    out.push(byte);
  } while (n > 0n);
  return Buffer.from(out);
}

const key = (field: number, wireType: number) => varint((field << 3) | wireType);

export const pb = {
  int: (field: number, value: number | bigint) => Buffer.concat([key(field, 0), varint(value)]),
  bool: (field: number, value: boolean) => pb.int(field, value ? 1 : 0),
  bytes: (field: number, value: Uint8Array) => Buffer.concat([key(field, 2), varint(value.length), value]),
  str: (field: number, value: string) => pb.bytes(field, Buffer.from(value, 'utf8')),
  msg: (field: number, ...parts: Buffer[]) => pb.bytes(field, Buffer.concat(parts)),
  /** A map entry: key 1, value 2 (already encoded as field 2). */
  entry: (field: number, mapKey: string, value: Buffer) => pb.msg(field, pb.str(1, mapKey), value),
  double: (field: number, value: number) => {
    const word = Buffer.alloc(8);
    word.writeDoubleLE(value);
    return Buffer.concat([key(field, 1), word]);
  },
  fixed32: (field: number) => Buffer.concat([key(field, 5), Buffer.alloc(4, 7)]),
  fixed64: (field: number) => Buffer.concat([key(field, 1), Buffer.alloc(8, 7)]),
};

/** `k8s\0` + runtime.Unknown{typeMeta, raw, contentEncoding: "", contentType: ""}. */
export function envelope(apiVersion: string, kind: string, ...raw: Buffer[]): Buffer {
  return Buffer.concat([
    Buffer.from('k8s\0', 'latin1'),
    pb.msg(1, pb.str(1, apiVersion), pb.str(2, kind)),
    pb.bytes(2, Buffer.concat(raw)),
    pb.str(3, ''),
    pb.str(4, ''),
  ]);
}

export interface MetaFields {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  /** [seconds, nanos]; absent means the zero time, written as an empty message. */
  created?: [number, number];
  deletionGracePeriodSeconds?: number;
}

/** metav1.ObjectMeta as Go writes it: all non-pointer fields present. */
export function objectMeta(field: number, m: MetaFields): Buffer {
  const created = m.created ? [pb.int(1, m.created[0]), pb.int(2, m.created[1])] : [];
  return pb.msg(field,
    pb.str(1, m.name ?? ''), pb.str(2, ''), pb.str(3, m.namespace ?? ''), pb.str(4, ''), pb.str(5, ''), pb.str(6, ''),
    pb.int(7, 0), pb.msg(8, ...created),
    ...(m.deletionGracePeriodSeconds === undefined ? [] : [pb.int(10, m.deletionGracePeriodSeconds)]),
    ...Object.entries(m.labels ?? {}).map(([k, v]) => pb.entry(11, k, pb.str(2, v))),
  );
}

/** intstr.IntOrString: type 0 int, 1 string; Go writes all three fields. */
export function intOrString(field: number, value: number | string): Buffer {
  return typeof value === 'number'
    ? pb.msg(field, pb.int(1, 0), pb.int(2, value), pb.str(3, ''))
    : pb.msg(field, pb.int(1, 1), pb.int(2, 0), pb.str(3, value));
}

export const quantity = (value: string) => pb.msg(2, pb.str(1, value));
