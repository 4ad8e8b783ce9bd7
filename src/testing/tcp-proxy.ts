/**
 * A loopback TCP proxy for fault injection: while paused, new connections are accepted but their
 * bytes are held back until `resume()`, as a slow network would. Used to make a client reconnect
 * "late", after the server has moved on.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let paused = false;
  const waiting: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    const connect = () => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      sockets.add(upstream);
      client.pipe(upstream).pipe(client);
      client.resume();
      const closeBoth = () => { client.destroy(); upstream.destroy(); };
      client.on('error', closeBoth).on('close', closeBoth);
      upstream.on('error', closeBoth).on('close', closeBoth);
    };
    if (paused) waiting.push(connect);
    else connect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    pause: () => { paused = true; },
    resume: () => {
      paused = false;
      for (const connect of waiting.splice(0)) connect();
    },
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
