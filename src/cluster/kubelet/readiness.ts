import { flappingReadiness, type ReadinessFlaps } from './behaviour/readiness-flaps.js';
import type { Container, Pod } from '../../api/core/index.js';
/**
 * Simulated readiness probes. A running container becomes ready after the policy's delay (and, by
 * default, its readinessProbe.initialDelaySeconds); `setContainerReady(ns, pod, container, false)`
 * makes its probe fail until set true again (true also skips any remaining delay).
 */

export interface ReadinessPolicy {
  /** Time after a container starts before it is ready (default 0); a function may look at the pod. */
  delayMs?: number | ((pod: Pod, container: Container) => number);
  /** Also wait readinessProbe.initialDelaySeconds (default true). */
  honourInitialDelay?: boolean;
  /** Once ready, alternate ready and unready periods (the node behaviour file's readinessFlaps). */
  flaps?: (pod: Pod, container: Container) => ReadinessFlaps | undefined;
}

export class ReadinessOverrides {
  private readonly overrides = new Map<string, boolean>();

  private static key(namespace: string, pod: string, container: string): string {
    return `${namespace}/${pod}/${container}`;
  }

  set(namespace: string, pod: string, container: string, ready: boolean): void {
    this.overrides.set(ReadinessOverrides.key(namespace, pod, container), ready);
  }

  get(namespace: string, pod: string, container: string): boolean | undefined {
    return this.overrides.get(ReadinessOverrides.key(namespace, pod, container));
  }

  /** Forgets the pod's overrides (it is gone; a new pod of the same name starts healthy). */
  clearPod(namespace: string, pod: string): void {
    const prefix = `${namespace}/${pod}/`;
    for (const key of this.overrides.keys()) if (key.startsWith(prefix)) this.overrides.delete(key);
  }
}

/** When a container started at `startedAtMs` turns ready, absent overrides. */
export function readyAt(policy: ReadinessPolicy, pod: Pod, container: Container, startedAtMs: number): number {
  const d = policy.delayMs;
  const delay = typeof d === 'function' ? d(pod, container) : d ?? 0;
  const probeDelay = policy.honourInitialDelay === false ? 0 : (container.readinessProbe?.initialDelaySeconds ?? 0) * 1000;
  return startedAtMs + Math.max(delay, probeDelay);
}

/** The probe result for a running container now, and when it would change without overrides. */
export function probeReadiness(policy: ReadinessPolicy, overrides: ReadinessOverrides, pod: Pod, container: Container, startedAtMs: number, now: number): { ready: boolean; changesAt?: number } {
  const forced = overrides.get(pod.metadata.namespace ?? 'default', pod.metadata.name!, container.name);
  if (forced !== undefined) return { ready: forced };
  const at = readyAt(policy, pod, container, startedAtMs);
  if (now < at) return { ready: false, changesAt: at };
  const flaps = policy.flaps?.(pod, container);
  return flaps ? flappingReadiness(at, flaps, now) : { ready: true };
}
