/**
 * How kruise-daemon reaches a pod for tcpSocket and httpGet probes (docs/design/pod-probes.md §6).
 * On a real node that is the host's network: a TCP dial of `<pod IP>:<port>`, an HTTP(S) GET with
 * the probe's headers, 2xx/3xx meaning success, no redirects followed, as kubelet's probers. Nodes
 * that are simulated hand the daemon their own network instead, answering from the simulated pods,
 * so nothing ever dials a simulated pod IP.
 */
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ProbeAnswer {
  ok: boolean;
  /** Why it failed, in the words of kubelet's probers (empty on success). */
  message: string;
}

export interface HttpProbeRequest {
  scheme: 'HTTP' | 'HTTPS';
  host: string;
  port: number;
  path: string;
  headers: { name: string; value: string }[];
}

export interface ProbeNetwork {
  tcp(host: string, port: number, timeoutMs: number): Promise<ProbeAnswer>;
  httpGet(req: HttpProbeRequest, timeoutMs: number): Promise<ProbeAnswer>;
}

/** `http://10.0.0.1:80/healthz` as Go's url package prints it (IPv6 hosts bracketed). */
export function probeUrl(req: HttpProbeRequest): string {
  const host = req.host.includes(':') ? `[${req.host}]` : req.host;
  const path = req.path.startsWith('/') ? req.path : `/${req.path}`;
  return `${req.scheme.toLowerCase()}://${host}:${req.port}${path}`;
}

const dialError = (host: string, port: number, e: NodeJS.ErrnoException): string =>
  `dial tcp ${host.includes(':') ? `[${host}]` : host}:${port}: connect: ${e.code === 'ECONNREFUSED' ? 'connection refused' : e.message}`;

export const hostNetwork: ProbeNetwork = {
  tcp: (host, port, timeoutMs) => new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve({ ok: false, message: `dial tcp ${host}:${port}: i/o timeout` });
    });
    socket.once('connect', () => { socket.destroy(); resolve({ ok: true, message: '' }); });
    socket.once('error', (e) => resolve({ ok: false, message: dialError(host, port, e) }));
  }),
  httpGet: (req, timeoutMs) => new Promise((resolve) => {
    const url = probeUrl(req);
    const headers: Record<string, string> = { 'User-Agent': 'kruise-daemon/probe', Accept: '*/*' };
    for (const h of req.headers) headers[h.name] = h.value;
    const send = req.scheme === 'HTTPS' ? httpsRequest : httpRequest;
    const r = send(url, { method: 'GET', headers, timeout: timeoutMs, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? { ok: true, message: '' } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
    });
    r.on('timeout', () => {
      r.destroy();
      resolve({ ok: false, message: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
    });
    r.on('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, message: `Get "${url}": ${dialError(req.host, req.port, e)}` }));
    r.end();
  }),
};
