/**
 * A server-side SPDY/3 connection, as much of it as Kubernetes' streaming protocols use
 * (docs/design/streaming.md §2): the client opens streams (SYN_STREAM with headers), the server
 * answers each (SYN_REPLY), data flows both ways in data frames, FIN half-closes, PING is echoed,
 * GOAWAY ends. No flow control: Go's spdystream sends no WINDOW_UPDATE and expects none.
 */
import type { Duplex } from 'node:stream';
import { HeaderCodec, type HeaderBlock } from './header-codec.js';

const Type = { synStream: 1, synReply: 2, rstStream: 3, settings: 4, ping: 6, goAway: 7, headers: 8, windowUpdate: 9 } as const;
const fin = 0x01;

export class SpdyStream {
  private readonly dataListeners: ((d: Buffer) => void)[] = [];
  private readonly endListeners: (() => void)[] = [];
  remoteClosed = false;
  localClosed = false;

  constructor(readonly id: number, readonly headers: HeaderBlock, private readonly conn: SpdyConnection) {}

  write(data: Uint8Array | string): void {
    if (this.localClosed) return;
    const b = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
    for (let at = 0; at < b.length; at += 0xffffff) this.conn.sendData(this.id, b.subarray(at, at + 0xffffff), false);
  }

  end(): void {
    if (this.localClosed) return;
    this.localClosed = true;
    this.conn.sendData(this.id, Buffer.alloc(0), true);
  }

  onData(l: (d: Buffer) => void): void { this.dataListeners.push(l); }
  onEnd(l: () => void): void { if (this.remoteClosed) l(); else this.endListeners.push(l); }

  received(data: Buffer, last: boolean): void {
    if (data.length) for (const l of this.dataListeners) l(data);
    if (last && !this.remoteClosed) {
      this.remoteClosed = true;
      for (const l of this.endListeners.splice(0)) l();
    }
  }
}

export class SpdyConnection {
  private readonly codec = new HeaderCodec();
  private readonly streams = new Map<number, SpdyStream>();
  private buffered: Buffer = Buffer.alloc(0);
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(private readonly socket: Duplex, private readonly onStream: (s: SpdyStream) => void) {
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('close', () => this.shutdown());
    socket.on('error', () => this.shutdown());
  }

  onClose(l: () => void): void { if (this.closed) l(); else this.closeListeners.push(l); }

  /** Sends GOAWAY and closes the socket once what was written has left. */
  close(): void {
    if (this.closed) return;
    const body = Buffer.alloc(8);
    body.writeUInt32BE(0, 0);
    this.enqueue(async () => { this.writeControl(Type.goAway, 0, body); this.socket.end(); });
  }

  sendData(id: number, data: Buffer, last: boolean): void {
    this.enqueue(async () => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(id & 0x7fffffff, 0);
      head.writeUInt32BE(((last ? fin : 0) << 24) | data.length, 4);
      this.socketWrite(Buffer.concat([head, data]));
    });
  }

  private receive(d: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, d]) : d;
    while (this.buffered.length >= 8) {
      const length = this.buffered.readUInt32BE(4) & 0xffffff;
      if (this.buffered.length < 8 + length) return;
      const frame = this.buffered.subarray(0, 8 + length);
      this.buffered = this.buffered.subarray(8 + length);
      this.enqueue(() => this.handle(frame));
    }
  }

  /** Frames are handled, and replies written, strictly in order: the zlib contexts are shared. */
  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch(() => this.shutdown());
  }

  private async handle(frame: Buffer): Promise<void> {
    const flags = frame[4];
    const body = frame.subarray(8);
    if ((frame[0] & 0x80) === 0) {
      this.streams.get(frame.readUInt32BE(0) & 0x7fffffff)?.received(body, (flags & fin) !== 0);
      return;
    }
    const type = frame.readUInt16BE(2);
    if (type === Type.synStream) {
      const id = body.readUInt32BE(0) & 0x7fffffff;
      const stream = new SpdyStream(id, await this.codec.decode(body.subarray(10)), this);
      this.streams.set(id, stream);
      const reply = Buffer.concat([u32(id), await this.codec.encode({})]);
      this.writeControl(Type.synReply, 0, reply);
      if (flags & fin) stream.received(Buffer.alloc(0), true);
      this.onStream(stream);
    } else if (type === Type.headers || type === Type.synReply) {
      await this.codec.decode(body.subarray(4)); // keep the shared context in step
    } else if (type === Type.rstStream) {
      this.streams.get(body.readUInt32BE(0) & 0x7fffffff)?.received(Buffer.alloc(0), true);
    } else if (type === Type.ping) {
      this.writeControl(Type.ping, 0, body);
    } else if (type === Type.goAway) {
      this.shutdown();
    }
  }

  private writeControl(type: number, flags: number, body: Buffer): void {
    const head = Buffer.alloc(8);
    head.writeUInt16BE(0x8000 | 3, 0);
    head.writeUInt16BE(type, 2);
    head.writeUInt32BE((flags << 24) | body.length, 4);
    this.socketWrite(Buffer.concat([head, body]));
  }

  private socketWrite(b: Buffer): void {
    if (!this.closed && !this.socket.destroyed) this.socket.write(b);
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) s.received(Buffer.alloc(0), true);
    this.codec.close();
    this.socket.destroy();
    for (const l of this.closeListeners.splice(0)) l();
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
