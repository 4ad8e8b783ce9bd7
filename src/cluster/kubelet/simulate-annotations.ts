/**
 * Pod annotations that script what the simulated containers do, so Job/BroadcastJob and sidecar
 * tests can make containers finish, fail or linger. Each takes a per-container form
 * (`<key>.<containerName>`) that wins over the pod-wide one:
 *
 *   kruise-ts.io/simulate-exit-code: "0"          exit with this code ...
 *   kruise-ts.io/simulate-run-seconds: "5"        ... this long after starting (default 0)
 *   kruise-ts.io/simulate-termination-seconds: "20"  time to exit after SIGTERM (killed at the grace period)
 *
 * Init containers always exit 0 right after starting unless scripted otherwise; native sidecars
 * (init containers with restartPolicy Always) and regular containers run until stopped.
 */
import { FakeAnnotations } from '../../daemon/cri/fake-container.js';
import type { Labels } from '../../daemon/cri/types.js';
import type { Container, Pod } from '../../api/core/index.js';

export const SimulateAnnotations = {
  exitCode: 'kruise-ts.io/simulate-exit-code',
  runSeconds: 'kruise-ts.io/simulate-run-seconds',
  terminationSeconds: 'kruise-ts.io/simulate-termination-seconds',
} as const;

function scripted(pod: Pod, key: string, container: string): number | undefined {
  const a = pod.metadata.annotations ?? {};
  const raw = a[`${key}.${container}`] ?? a[key];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export type ContainerRole = 'init' | 'sidecar' | 'main';

export function roleOf(container: Container, isInit: boolean): ContainerRole {
  if (!isInit) return 'main';
  return container.restartPolicy === 'Always' ? 'sidecar' : 'init';
}

/**
 * The fake runtime's script annotations for one container. `terminationDelayMs` is the kubelet-wide
 * default time to exit after SIGTERM (the annotation overrides it).
 */
export function scriptAnnotations(pod: Pod, container: Container, role: ContainerRole, terminationDelayMs: number): Labels {
  const out: Labels = {};
  const exitCode = scripted(pod, SimulateAnnotations.exitCode, container.name);
  const runSeconds = scripted(pod, SimulateAnnotations.runSeconds, container.name);
  const termination = scripted(pod, SimulateAnnotations.terminationSeconds, container.name);
  if (role === 'init') {
    out[FakeAnnotations.exitCode] = String(exitCode ?? 0);
    out[FakeAnnotations.runMs] = String((runSeconds ?? 0) * 1000);
  } else if (role === 'main' && (exitCode !== undefined || runSeconds !== undefined)) {
    out[FakeAnnotations.exitCode] = String(exitCode ?? 0);
    out[FakeAnnotations.runMs] = String((runSeconds ?? 0) * 1000);
  }
  const terminationMs = termination !== undefined ? termination * 1000 : terminationDelayMs;
  if (Number.isFinite(terminationMs)) out[FakeAnnotations.terminationMs] = String(terminationMs);
  return out;
}
