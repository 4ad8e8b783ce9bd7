/**
 * exec and attach over SPDY/3.1 (docs/design/streaming.md §2), the remotecommand v4 protocol: the
 * client opens one stream per channel, named by its `streamType` header (error, stdin, stdout,
 * stderr, resize); the command starts once every stream the request asked for is there, and its
 * Status is written on the error stream before everything closes.
 */
import type { SpdyConnection, SpdyStream } from './spdy/connection.js';
import type { CommandChannels } from './remote-command.js';
import type { CommandRequest } from './stream-request.js';

const waitForStreamsMs = 30_000;

/** Collects streams by type until those the request needs are open. */
export class SpdyCommandStreams {
  private readonly byType = new Map<string, SpdyStream>();
  private ready!: (ok: boolean) => void;
  readonly opened = new Promise<boolean>((resolve) => { this.ready = resolve; });

  constructor(private readonly conn: SpdyConnection, private readonly req: CommandRequest) {
    const timer = setTimeout(() => this.ready(false), waitForStreamsMs);
    timer.unref();
    conn.onClose(() => this.ready(false));
    void this.opened.then(() => clearTimeout(timer));
  }

  add(stream: SpdyStream): void {
    this.byType.set(stream.headers['streamtype'] ?? '', stream);
    const needed = ['error', ...(this.req.stdin ? ['stdin'] : []), ...(this.req.stdout ? ['stdout'] : []), ...(this.req.stderr ? ['stderr'] : [])];
    if (needed.every((t) => this.byType.has(t))) this.ready(true);
  }

  channels(): CommandChannels {
    const s = (t: string) => this.byType.get(t);
    const goneListeners: (() => void)[] = [];
    let finished = false;
    this.conn.onClose(() => { if (!finished) for (const l of goneListeners) l(); });
    return {
      stdout: s('stdout') && ((d) => s('stdout')!.write(d)),
      stderr: s('stderr') && ((d) => s('stderr')!.write(d)),
      onStdin: (data, end) => { const stdin = s('stdin'); if (stdin) { stdin.onData(data); stdin.onEnd(end); } },
      onClientGone: (l) => goneListeners.push(l),
      finish: (status) => {
        finished = true;
        const error = s('error')!;
        error.write(status);
        for (const stream of this.byType.values()) stream.end();
        this.conn.close();
      },
    };
  }
}
