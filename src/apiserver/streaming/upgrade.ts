/**
 * The streaming endpoints' entry (docs/design/streaming.md §1): an HTTP/1.1 upgrade on
 * pods/{exec,attach,portforward}, authenticated by the transport, authorized as `create` on the
 * subresource (kube-apiserver 1.32 asks that of WebSocket GETs too), checked as kube-apiserver
 * checks it, then answered over the protocol the client offers: WebSocket channels
 * (v5/v4.channel.k8s.io), SPDY/3.1 tunneled in a WebSocket for port-forward, or plain SPDY/3.1.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { Pod } from '../../api/core/index.js';
import type { ApiRequest, UserInfo } from '../../api/request.js';
import { errors, StatusError } from '../../machinery/errors.js';
import type { RequestGate } from '../authz/request-gate.js';
import type { KubeletDialer } from './kubelet-dialer.js';
import { runRemoteCommand } from './remote-command.js';
import { SpdyConnection } from './spdy/connection.js';
import { SpdyCommandStreams } from './spdy-command.js';
import { SpdyPortForward } from './spdy-port-forward.js';
import { commandRequest, portForwardPorts } from './stream-request.js';
import { channelProtocols, websocketChannels } from './websocket-command.js';

export interface StreamingOptions {
  gate: RequestGate;
  kubelets: KubeletDialer;
  /** The pod as stored, read with the server's own rights. */
  pod(namespace: string, name: string): Pod | undefined;
}

const tunneledPortForward = 'SPDY/3.1+portforward.k8s.io';
const spdyCommandProtocol = 'v4.channel.k8s.io';
const spdyPortForwardProtocol = 'portforward.k8s.io';
const path = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach|portforward)$/;

export function streamingUpgrades(o: StreamingOptions): (req: IncomingMessage, socket: Duplex, head: Buffer, user: UserInfo) => void {
  const wss = new WebSocketServer({
    noServer: true, perMessageDeflate: false,
    handleProtocols: (offered) => channelProtocols.find((p) => offered.has(p)) ?? (offered.has(tunneledPortForward) ? tunneledPortForward : false),
  });
  return (req, socket, head, user) => {
    try {
      upgrade(o, wss, req, socket, head, user);
    } catch (e) {
      refuse(socket, e instanceof StatusError ? e : errors.internal((e as Error).message));
    }
  };
}

function upgrade(o: StreamingOptions, wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer, user: UserInfo): void {
  const url = new URL(req.url ?? '/', 'https://localhost');
  const m = path.exec(url.pathname);
  if (!m) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  const [, namespace, name, sub] = m.map(decodeURIComponent);
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const apiReq: ApiRequest = { method: 'POST', path: url.pathname, query: url.searchParams, headers, user };
  o.gate.admit(apiReq);
  const pod = o.pod(namespace, name);
  if (!pod) throw errors.notFound('pods', name, '');
  const websocket = (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
  const target = { namespace, pod: name, uid: pod.metadata.uid! };
  if (sub === 'portforward') {
    portForwardPorts(pod, url.searchParams);
    const kubelet = o.kubelets.dial(pod.spec.nodeName!);
    const forward = new SpdyPortForward((port) => kubelet.portForward(target, port));
    if (websocket) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (ws.protocol !== tunneledPortForward) return ws.close(1002, 'unsupported subprotocol');
        new SpdyConnection(createWebSocketStream(ws), (s) => forward.add(s));
      });
      return;
    }
    switchToSpdy(socket, head, offered(req, spdyPortForwardProtocol), (conn) => (s) => forward.add(s));
    return;
  }
  const command = commandRequest(pod, url.searchParams, sub === 'exec');
  const kubelet = o.kubelets.dial(pod.spec.nodeName!);
  const ctarget = { ...target, container: command.container };
  const options = { stdin: command.stdin, tty: command.tty };
  const start = (io: Parameters<Parameters<typeof runRemoteCommand>[0]>[0]) =>
    sub === 'exec' ? kubelet.exec(ctarget, command.command, options, io) : kubelet.attach(ctarget, options, io);
  if (websocket) {
    wss.handleUpgrade(req, socket, head, (ws) => void runRemoteCommand(start, websocketChannels(ws, command), command.command));
    return;
  }
  switchToSpdy(socket, head, offered(req, spdyCommandProtocol), (conn) => {
    const streams = new SpdyCommandStreams(conn, command);
    void streams.opened.then((ok) => (ok ? runRemoteCommand(start, streams.channels(), command.command) : conn.close()));
    return (s) => streams.add(s);
  });
}

/** The protocol version kube would pick, or a 403 naming both sides' lists as kube words it. */
function offered(req: IncomingMessage, ours: string): string {
  const theirs = String(req.headers['x-stream-protocol-version'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (theirs.includes(ours)) return ours;
  throw new StatusError(403, 'Forbidden', `unable to upgrade: unable to negotiate protocol: client supports ${JSON.stringify(theirs)}, server accepts ${JSON.stringify([ours])}`, {});
}

function switchToSpdy(socket: Duplex, head: Buffer, protocol: string, onConnection: (conn: SpdyConnection) => (s: import('./spdy/connection.js').SpdyStream) => void): void {
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${protocol}\r\n\r\n`);
  if (head.length) socket.unshift(head);
  let add: (s: import('./spdy/connection.js').SpdyStream) => void = () => undefined;
  const conn = new SpdyConnection(socket, (s) => add(s));
  add = onConnection(conn);
}

function refuse(socket: Duplex, e: StatusError): void {
  const body = JSON.stringify(e.toStatus());
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[e.code] ?? 'Internal Server Error';
  socket.end(`HTTP/1.1 ${e.code} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
