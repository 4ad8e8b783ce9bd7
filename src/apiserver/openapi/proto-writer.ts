/**
 * A minimal protocol buffers (proto3) writer: enough to encode gnostic's OpenAPI v2 Document,
 * which kubectl 1.27/1.28 download from /openapi/v2. Default values are skipped unless forced
 * (oneof members must be written even when false or empty).
 */

export class ProtoWriter {
  private readonly chunks: Buffer[] = [];

  private varint(value: bigint): void {
    const bytes: number[] = [];
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.chunks.push(Buffer.from(bytes));
  }

  private tag(field: number, wireType: number): void {
    this.varint(BigInt((field << 3) | wireType));
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2);
    this.varint(BigInt(data.length));
    this.chunks.push(Buffer.from(data));
    return this;
  }

  string(field: number, value: string | undefined, force = false): this {
    if (value === undefined || (value === '' && !force)) return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  strings(field: number, values: string[] | undefined): this {
    for (const v of values ?? []) this.string(field, v, true);
    return this;
  }

  bool(field: number, value: boolean | undefined, force = false): this {
    if (value === undefined || (!value && !force)) return this;
    this.tag(field, 0);
    this.varint(value ? 1n : 0n);
    return this;
  }

  int64(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    this.tag(field, 0);
    this.varint(BigInt(Math.trunc(value)));
    return this;
  }

  double(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    this.tag(field, 1);
    const buf = Buffer.alloc(8);
    buf.writeDoubleLE(value);
    this.chunks.push(buf);
    return this;
  }

  /** An embedded message written by `build`; always emitted (presence matters for messages). */
  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
