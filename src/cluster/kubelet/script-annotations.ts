/**
 * Pod annotations scripting what simulated probes and lifecycle hooks answer (the probe grammar is
 * in machinery/outcome-script.ts; docs/design/simulated-nodes.md §14, §15). Like the container scripts
 * of simulate-annotations.ts, each has a per-container form `<key>.<container>` that wins over the
 * pod-wide `<key>`.
 */
import type { Pod } from '../../api/core/index.js';

export const ProbeAnnotations = {
  liveness: 'kruise-ts.io/simulate-liveness',
  readiness: 'kruise-ts.io/simulate-readiness',
  startup: 'kruise-ts.io/simulate-startup',
} as const;

export const HookAnnotations = {
  /** `succeed` (default) or `fail`. */
  postStart: 'kruise-ts.io/simulate-poststart',
  /** How long the postStart hook runs (default 0; a `sleep` action its seconds). */
  postStartSeconds: 'kruise-ts.io/simulate-poststart-seconds',
  /** `succeed` (default) or `fail`. */
  preStop: 'kruise-ts.io/simulate-prestop',
  /** How long the preStop hook runs (default 0; a `sleep` action its seconds); cut off at the grace period. */
  preStopSeconds: 'kruise-ts.io/simulate-prestop-seconds',
} as const;

/** The annotation `<key>.<container>`, else `<key>`, else undefined. */
export function scriptFor(pod: Pod, key: string, container: string): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[`${key}.${container}`] ?? a[key];
}

/**
 * Outcome scripts for what kruise-daemon's probes meet (docs/design/pod-probes.md §7): ExecSync in the
 * container, and the container's listeners (its declared ports) for tcpSocket and httpGet probes.
 */
export const DaemonProbeAnnotations = {
  exec: 'kruise-ts.io/simulate-exec',
  listeners: 'kruise-ts.io/simulate-listeners',
} as const;
