/**
 * A connection forwarded to a simulated pod's port (docs/design/streaming.md §5). Nothing listens
 * on a simulated pod IP, so the listener answers for itself while its script says it is up (the
 * listeners the daemon's probes meet, docs/design/pod-probes.md §7): an HTTP request gets
 * `200 OK` naming the pod and port; any other bytes are echoed back. A port nothing listens on is
 * refused with the kubelet's words.
 */
import type { PortConnection } from '../../../api/pod-streams.js';

const httpRequest = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ HTTP\/1\.[01]\r\n/;

export function refusedMessage(port: number, uid: string, sandboxId: string): string {
  return `error forwarding port ${port} to pod ${sandboxId}, uid : failed to execute portforward in network namespace "/var/run/netns/cni-${uid}": ` +
    `failed to connect to localhost:${port} inside namespace "${sandboxId}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused `;
}

export function simulatedListener(pod: string, port: number): PortConnection {
  const dataListeners: ((d: Uint8Array) => void)[] = [];
  const endListeners: ((e?: string) => void)[] = [];
  let pending = '';
  let ended = false;
  const send = (d: Uint8Array | string) => { const b = typeof d === 'string' ? Buffer.from(d) : d; for (const l of dataListeners) l(b); };
  const answerHttp = () => {
    for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
      const head = pending.slice(0, end);
      pending = pending.slice(end + 4);
      const body = head.startsWith('HEAD ') ? '' : `kruise-ts simulated listener: pod ${pod} port ${port}\n`;
      send(`HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(`kruise-ts simulated listener: pod ${pod} port ${port}\n`)}\r\n\r\n${body}`);
    }
  };
  return {
    write(data) {
      if (ended) return;
      const text = Buffer.from(data).toString('latin1');
      if (pending !== '' || httpRequest.test(text) || /^[A-Z]+ ?$/.test(text)) {
        pending += text;
        if (httpRequest.test(pending)) answerHttp();
        return;
      }
      send(data);
    },
    end() {
      if (ended) return;
      ended = true;
      for (const l of endListeners) l();
    },
    onData: (l) => { dataListeners.push(l); },
    onEnd: (l) => { endListeners.push(l); },
  };
}
