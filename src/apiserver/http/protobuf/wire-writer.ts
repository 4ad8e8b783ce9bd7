/**
 * A growing buffer for the protobuf wire format, the writing side of wire-reader.ts. A nested message is
 * written in place after a reserved one-byte length; `endMessage` widens the length when the message
 * turned out to need more (a short copy, rare: most nested messages are under 128 bytes).
 */
import { WireType } from './wire-reader.js';

export class WireWriter {
  private buf = Buffer.allocUnsafe(1024);
  private pos = 0;

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** An unsigned varint of up to 53 bits, or a negative integer as its 64-bit two's complement. */
  varint(value: number): void {
    if (value < 0 || value > 0xffffffff) return this.bigVarint(BigInt.asUintN(64, BigInt(value)));
    this.reserve(5);
    while (value > 0x7f) {
      this.buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.buf[this.pos++] = value;
  }

  private bigVarint(n: bigint): void {
    this.reserve(10);
    while (n > 0x7fn) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, WireType.Bytes);
    this.varint(value.length);
    this.reserve(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  string(field: number, value: string): void {
    this.tag(field, WireType.Bytes);
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.reserve(length);
    this.pos += this.buf.write(value, this.pos, 'utf8');
  }

  double(field: number, value: number): void {
    this.tag(field, WireType.Fixed64);
    this.reserve(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  /** Starts a length-delimited field; pass the returned mark to `endMessage`. */
  beginMessage(field: number): number {
    this.tag(field, WireType.Bytes);
    this.reserve(1);
    this.buf[this.pos++] = 0;
    return this.pos;
  }

  endMessage(start: number): void {
    const length = this.pos - start;
    if (length < 0x80) {
      this.buf[start - 1] = length;
      return;
    }
    let extra = 0;
    for (let n = length >>> 7; n > 0; n >>>= 7) extra++;
    this.reserve(extra);
    this.buf.copy(this.buf, start + extra, start, this.pos);
    let at = start - 1;
    let n = length;
    while (n > 0x7f) {
      this.buf[at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[at] = n;
    this.pos += extra;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** The bytes written, copied out of the working buffer. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}
