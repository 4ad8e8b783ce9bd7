/**
 * The simulated pod network as kruise-daemon's tcpSocket and httpGet probes meet it
 * (docs/design/pod-probes.md §7): an address is a pod IP of a bound pod; a port answers while a
 * running container of that pod declares it (`ports[].containerPort`) and the container's listener
 * script (`kruise-ts.io/simulate-listeners[.<container>]`, the outcome grammar of the kubelet's
 * probes) says it is up. Anything else is refused. Nothing connects anywhere.
 */
import { sleep, type Clock } from '../../machinery/clock.js';
import { parseOutcomeScript, succeedsAt } from '../../machinery/outcome-script.js';
import { timeOf } from '../../machinery/time.js';
import { probeUrl, type ProbeAnswer, type ProbeNetwork } from '../../daemon/podprobe/network.js';
import { DaemonProbeAnnotations, scriptFor } from './script-annotations.js';
import type { Pod } from '../../api/core/index.js';

type Reach = { up: true; latencyMs: number } | { up: false };

/** Whether a running container of `pod` listens on `port` now, by its listener script. */
export function listenerReach(pod: Pod | undefined, port: number, clock: Clock): Reach {
  const container = pod?.spec.containers.find((c) => c.ports?.some((p) => p.containerPort === port && (p.protocol ?? 'TCP') === 'TCP'));
  const startedAt = timeOf(pod?.status?.containerStatuses?.find((s) => s.name === container?.name)?.state?.running?.startedAt);
  if (!pod || !container || startedAt === undefined) return { up: false };
  const text = scriptFor(pod, DaemonProbeAnnotations.listeners, container.name);
  try {
    const script = text === undefined ? undefined : parseOutcomeScript(text);
    if (script && !succeedsAt(script.shape, clock.now() - startedAt)) return { up: false };
    return { up: true, latencyMs: script?.latencyMs ?? 0 };
  } catch {
    return { up: false };
  }
}

export function simulatedEndpoints(pods: () => Pod[], clock: Clock): ProbeNetwork {
  const reach = (host: string, port: number): Reach => listenerReach(pods().find((p) => p.status?.podIP === host && p.status.phase === 'Running'), port, clock);
  /** Waits the listener's latency; a latency at or past the timeout is the timeout. */
  const answer = async (r: Reach, timeoutMs: number, refused: string, timedOut: string): Promise<ProbeAnswer> => {
    if (!r.up) return { ok: false, message: refused };
    if (r.latencyMs >= timeoutMs) {
      await sleep(clock, timeoutMs);
      return { ok: false, message: timedOut };
    }
    if (r.latencyMs > 0) await sleep(clock, r.latencyMs);
    return { ok: true, message: '' };
  };
  return {
    tcp: (host, port, timeoutMs) => answer(reach(host, port), timeoutMs,
      `dial tcp ${host}:${port}: connect: connection refused`, `dial tcp ${host}:${port}: i/o timeout`),
    httpGet: (req, timeoutMs) => answer(reach(req.host, req.port), timeoutMs,
      `Get "${probeUrl(req)}": dial tcp ${req.host}:${req.port}: connect: connection refused`,
      `Get "${probeUrl(req)}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`),
  };
}
