/**
 * A probe's settings with the API's defaults, and what a failing probe prints: the output kubelet's
 * exec, HTTP, TCP and gRPC probers give for a failure or a timeout (an exec probe's output is the
 * command's own, which a simulated command does not have, so it says how the command ended).
 */
import type { Container, Probe } from '../../../api/core/index.js';

export type ProbeType = 'liveness' | 'readiness' | 'startup';

export interface ProbeSettings {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
  successThreshold: number;
  failureThreshold: number;
}

const positive = (n: number | undefined, fallback: number): number => (n !== undefined && n > 0 ? n : fallback);

/** periodSeconds 10, timeoutSeconds 1, successThreshold 1, failureThreshold 3 unless set. */
export function probeSettings(probe: Probe): ProbeSettings {
  return {
    initialDelayMs: Math.max(0, probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: positive(probe.periodSeconds, 10) * 1000,
    timeoutMs: positive(probe.timeoutSeconds, 1) * 1000,
    successThreshold: positive(probe.successThreshold, 1),
    failureThreshold: positive(probe.failureThreshold, 3),
  };
}

export function probeOf(container: Container, type: ProbeType): Probe | undefined {
  if (type === 'liveness') return container.livenessProbe;
  if (type === 'readiness') return container.readinessProbe;
  return container.startupProbe;
}

/** `Liveness`, `Readiness`, `Startup` as kubelet's event messages spell them. */
export const probeTypeTitle = (type: ProbeType): string => type[0].toUpperCase() + type.slice(1);

/** A named port resolved against the container's ports (kubelet's findPortByName). */
export function resolvePort(container: Container, port: number | string): string {
  if (typeof port === 'number' || /^\d+$/.test(port)) return String(port);
  const found = container.ports?.find((p) => p.name === port);
  return found ? String(found.containerPort) : port;
}

/** The output of a failed probe, as kubelet's probers word it. */
export function failureOutput(probe: Probe, container: Container, podIP: string, timedOut: boolean): string {
  const timeoutS = `${positive(probe.timeoutSeconds, 1)}s`;
  if (probe.httpGet) {
    const h = probe.httpGet;
    if (!timedOut) return 'HTTP probe failed with statuscode: 500';
    const url = `${(h.scheme ?? 'HTTP').toLowerCase()}://${h.host || podIP}:${resolvePort(container, h.port)}${h.path ?? ''}`;
    return `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
  }
  if (probe.tcpSocket) {
    const address = `${probe.tcpSocket.host || podIP}:${resolvePort(container, probe.tcpSocket.port)}`;
    return timedOut ? `dial tcp ${address}: i/o timeout` : `dial tcp ${address}: connect: connection refused`;
  }
  if (probe.grpc) {
    return timedOut ? `timeout: health rpc did not complete within ${timeoutS}` : 'service unhealthy (responded with "NOT_SERVING")';
  }
  const command = (probe.exec?.command ?? []).join(' ');
  return timedOut ? `command "${command}" timed out` : `command "${command}" exited with code 1`;
}
