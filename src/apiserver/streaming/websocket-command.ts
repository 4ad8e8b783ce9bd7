/**
 * exec and attach over a WebSocket (docs/design/streaming.md §1): every message is binary, its
 * first byte the channel (0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize). v5.channel.k8s.io adds
 * a close signal ([255, channel]: the client's stdin is done); v4.channel.k8s.io has none.
 */
import type { WebSocket } from 'ws';
import type { CommandChannels } from './remote-command.js';
import type { CommandRequest } from './stream-request.js';

export const channelProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
const Channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

export function websocketChannels(ws: WebSocket, req: CommandRequest): CommandChannels {
  const send = (channel: number) => (data: Uint8Array | string) => {
    if (ws.readyState !== ws.OPEN) return;
    const body = typeof data === 'string' ? Buffer.from(data) : data;
    ws.send(Buffer.concat([Buffer.of(channel), body]), { binary: true });
  };
  const stdinListeners: [(d: Uint8Array) => void, () => void][] = [];
  const goneListeners: (() => void)[] = [];
  let finished = false;
  ws.on('message', (raw: Buffer, isBinary: boolean) => {
    const data = isBinary ? raw : Buffer.from(raw);
    if (data.length === 0) return;
    if (data[0] === Channel.stdin && data.length > 1) for (const [l] of stdinListeners) l(data.subarray(1));
    if (data[0] === Channel.close && data[1] === Channel.stdin) for (const [, end] of stdinListeners) end();
  });
  ws.on('close', () => { if (!finished) for (const l of goneListeners) l(); });
  return {
    stdout: req.stdout ? send(Channel.stdout) : undefined,
    stderr: req.stderr ? send(Channel.stderr) : undefined,
    onStdin: (data, end) => { if (req.stdin) stdinListeners.push([data, end]); },
    onClientGone: (l) => goneListeners.push(l),
    finish(status) {
      finished = true;
      send(Channel.error)(status);
      ws.close(1000);
    },
  };
}
