/**
 * The readiness policy of the simulated nodes and the readiness tests force. A container is ready
 * once its readiness probe succeeds (prober/, with readinessProbe.initialDelaySeconds unless the
 * policy says otherwise) and the policy's delay after its start is over; `setContainerReady(ns, pod,
 * container, false)` makes it unready until set true again (true also skips probes and delay).
 */
import type { Container, Pod } from '../../api/core/index.js';
import type { ReadinessFlaps } from './behaviour/readiness-flaps.js';

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

/** How long after its start a container may be ready at the earliest (the policy's delay). */
export function readinessFloorMs(policy: ReadinessPolicy, pod: Pod, container: Container): number {
  const d = policy.delayMs;
  return typeof d === 'function' ? d(pod, container) : d ?? 0;
}
