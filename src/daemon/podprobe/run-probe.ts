/**
 * One probe run (upstream's prober): exec through CRI ExecSync in the container (exit 0 succeeds),
 * tcpSocket and httpGet against the pod IP through the daemon's network; timeoutSeconds at least 1.
 * Any error is a failure whose message says why (docs/design/pod-probes.md §4).
 */
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { ProbeState } from '../../api/kruise/ops/podprobemarker.js';
import type { RuntimeService } from '../cri/services.js';
import type { ProbeNetwork } from './network.js';

export type ProbeSpec = NonNullable<NonNullable<NonNullable<NodePodProbe['spec']>['podProbes']>[number]['probes']>[number]['probe'];

export interface ProbeRunInput {
  probe: ProbeSpec;
  runtime: RuntimeService;
  /** The bare container ID (without `<runtime>://`). */
  containerId: string;
  podIP: string;
  network: ProbeNetwork;
}

export interface ProbeOutcome {
  state: Exclude<ProbeState, 'Unknown'>;
  message: string;
}

const decoder = new TextDecoder();
const failed = (message: string): ProbeOutcome => ({ state: 'Failed', message });

/** A port the manager already made a number (named ports are resolved when the probe is written). */
function portOf(port: number | string | undefined): number | undefined {
  const n = typeof port === 'number' ? port : Number(port);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

export async function runProbe({ probe, runtime, containerId, podIP, network }: ProbeRunInput): Promise<ProbeOutcome> {
  const timeoutSeconds = Math.max(1, probe.timeoutSeconds ?? 1);
  try {
    if (probe.exec) {
      if (!runtime.execSync) return failed('the container runtime does not support ExecSync');
      const r = await runtime.execSync(containerId, probe.exec.command ?? [], timeoutSeconds);
      const output = decoder.decode(r.exitCode === 0 ? r.stdout : (r.stderr.length > 0 ? r.stderr : r.stdout));
      return { state: r.exitCode === 0 ? 'Succeeded' : 'Failed', message: output };
    }
    if (probe.tcpSocket) {
      const port = portOf(probe.tcpSocket.port);
      if (port === undefined) return failed(`invalid port number: ${String(probe.tcpSocket.port)}`);
      const a = await network.tcp(probe.tcpSocket.host || podIP, port, timeoutSeconds * 1000);
      return { state: a.ok ? 'Succeeded' : 'Failed', message: a.message };
    }
    if (probe.httpGet) {
      const h = probe.httpGet;
      const port = portOf(h.port);
      if (port === undefined) return failed(`invalid port number: ${String(h.port)}`);
      const scheme = h.scheme === 'HTTPS' ? 'HTTPS' : 'HTTP';
      const a = await network.httpGet({ scheme, host: h.host || podIP, port, path: h.path ?? '/', headers: h.httpHeaders ?? [] }, timeoutSeconds * 1000);
      return { state: a.ok ? 'Succeeded' : 'Failed', message: a.message };
    }
    return failed('missing probe handler');
  } catch (e) {
    return failed((e as Error).message);
  }
}
