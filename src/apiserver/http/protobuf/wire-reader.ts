/**
 * A bounds-checked reader for the protobuf wire format: varints, length-delimited bytes and the fixed
 * 32/64-bit words (wire types 0, 2, 5, 1). Enough for Kubernetes objects, which use no groups.
 */

/** Malformed wire data; decode.ts turns it into a 400 BadRequest. */
export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

export const WireType = { Varint: 0, Fixed64: 1, Bytes: 2, Fixed32: 5 } as const;

export interface FieldTag {
  number: number;
  wireType: number;
}

export class WireReader {
  private pos: number;

  constructor(private readonly buf: Uint8Array, start = 0, private readonly end = buf.length) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next field's number and wire type. */
  tag(): FieldTag {
    const raw = this.varint();
    const number = Number(raw >> 3n);
    const wireType = Number(raw & 7n);
    if (number < 1 || number > 0x1fffffff) throw new ProtobufError(`invalid field number ${number}`);
    return { number, wireType };
  }

  /** An unsigned varint of up to 64 bits. */
  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  /** A length-delimited payload, as a view on the body (no copy). */
  bytes(): Uint8Array {
    const length = this.varint();
    if (length > BigInt(this.end - this.pos)) {
      throw new ProtobufError(`length ${length} runs past the end of the message (${this.end - this.pos} bytes left)`);
    }
    const start = this.pos;
    this.pos += Number(length);
    return this.buf.subarray(start, this.pos);
  }

  /** A little-endian IEEE 754 double (wire type 1). */
  double(): number {
    this.advance(8);
    return Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos - 8, 8).readDoubleLE(0);
  }

  /** Steps over a field whose number the descriptor does not know. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.Varint: this.varint(); return;
      case WireType.Bytes: this.bytes(); return;
      case WireType.Fixed64: this.advance(8); return;
      case WireType.Fixed32: this.advance(4); return;
      default: throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.end - this.pos < n) throw new ProtobufError('truncated fixed-width field');
    this.pos += n;
  }
}

/** Decodes every field of a message with `visit`, which must consume the field's value. */
export function forEachField(buf: Uint8Array, visit: (tag: FieldTag, reader: WireReader) => void): void {
  const reader = new WireReader(buf);
  while (!reader.done) visit(reader.tag(), reader);
}

/** Go strings are bytes; invalid UTF-8 becomes U+FFFD, as encoding/json writes it. */
export function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}
