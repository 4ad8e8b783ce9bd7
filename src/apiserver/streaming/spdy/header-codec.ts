/**
 * SPDY/3 header blocks (docs/design/streaming.md §2): a count of name/value pairs, each a 32-bit
 * length and its bytes, compressed with zlib over one dictionary-primed context per direction that
 * lives as long as the connection. Each block ends with a sync flush, so the contexts are streams:
 * blocks are (de)compressed one at a time, in frame order.
 */
import zlib from 'node:zlib';
import { headerDictionary } from './dictionary.js';

export type HeaderBlock = Record<string, string>;

export function encodeHeaders(headers: HeaderBlock): Buffer {
  const parts: Buffer[] = [u32(Object.keys(headers).length)];
  for (const [name, value] of Object.entries(headers)) {
    const n = Buffer.from(name.toLowerCase());
    const v = Buffer.from(value);
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaders(block: Buffer): HeaderBlock {
  const out: HeaderBlock = {};
  let at = 4;
  const count = block.readUInt32BE(0);
  for (let i = 0; i < count; i++) {
    const nl = block.readUInt32BE(at);
    const name = block.subarray(at + 4, at + 4 + nl).toString();
    at += 4 + nl;
    const vl = block.readUInt32BE(at);
    out[name.toLowerCase()] = block.subarray(at + 4, at + 4 + vl).toString().replace(/\0/g, ', ');
    at += 4 + vl;
  }
  return out;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** One direction's zlib context; `run` feeds a block and resolves with what the flush gives out. */
class ZlibContext {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly chunks: Buffer[] = [];

  constructor(private readonly stream: zlib.Inflate | zlib.Deflate) {
    stream.on('data', (c: Buffer) => this.chunks.push(c));
    stream.on('error', () => undefined);
  }

  run(input: Buffer): Promise<Buffer> {
    const next = this.queue.then(() => new Promise<Buffer>((resolve, reject) => {
      this.chunks.length = 0;
      this.stream.write(input, (e) => { if (e) reject(e); });
      this.stream.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(this.chunks.splice(0))));
    }));
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.stream.destroy();
  }
}

export class HeaderCodec {
  private readonly inflate = new ZlibContext(zlib.createInflate({ dictionary: headerDictionary }));
  private readonly deflate = new ZlibContext(zlib.createDeflate({ dictionary: headerDictionary }));

  async decode(compressed: Buffer): Promise<HeaderBlock> {
    return decodeHeaders(await this.inflate.run(compressed));
  }

  encode(headers: HeaderBlock): Promise<Buffer> {
    return this.deflate.run(encodeHeaders(headers));
  }

  close(): void {
    this.inflate.close();
    this.deflate.close();
  }
}
