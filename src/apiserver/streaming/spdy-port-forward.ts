/**
 * port-forward over SPDY/3.1, protocol portforward.k8s.io (docs/design/streaming.md §5): for each
 * local connection kubectl opens an `error` and a `data` stream carrying the same `requestID` and
 * `port` headers; the data stream is joined to the pod's port, and a failure is written on the error
 * stream as text (kubectl prints it and drops that connection, not the tunnel).
 */
import type { PortConnection } from '../../api/pod-streams.js';
import type { SpdyStream } from './spdy/connection.js';

type Connect = (port: number) => Promise<PortConnection>;

export class SpdyPortForward {
  private readonly pairs = new Map<string, { error?: SpdyStream; data?: SpdyStream }>();

  constructor(private readonly connect: Connect) {}

  add(stream: SpdyStream): void {
    const id = stream.headers['requestid'] ?? '';
    const pair = this.pairs.get(id) ?? {};
    if (stream.headers['streamtype'] === 'error') pair.error = stream;
    else if (stream.headers['streamtype'] === 'data') pair.data = stream;
    else return;
    this.pairs.set(id, pair);
    if (pair.error && pair.data) {
      this.pairs.delete(id);
      void this.join(pair.error, pair.data, Number(stream.headers['port']));
    }
  }

  private async join(error: SpdyStream, data: SpdyStream, port: number): Promise<void> {
    let conn: PortConnection;
    try {
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid port: ${port}`);
      conn = await this.connect(port);
    } catch (e) {
      error.write((e as Error).message);
      error.end();
      data.end();
      return;
    }
    conn.onData((d) => data.write(d));
    conn.onEnd((why) => { if (why) error.write(why); error.end(); data.end(); });
    data.onData((d) => conn.write(d));
    data.onEnd(() => conn.end());
  }
}
