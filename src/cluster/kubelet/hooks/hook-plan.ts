/**
 * What a simulated lifecycle hook does (§15): how long it runs (the `simulate-<hook>-seconds`
 * annotation, else a `sleep` action's seconds, else at once) and whether it fails (`simulate-<hook>:
 * fail`; a sleep cannot fail), with the message kubelet's handler runner gives for a failed exec or
 * HTTP hook.
 */
import { HookAnnotations, scriptFor } from '../script-annotations.js';
import { parseSimDuration } from '../../../machinery/outcome-script.js';
import { resolvePort } from '../prober/probe-spec.js';
import type { Container, LifecycleHandler, Pod } from '../../../api/core/index.js';

export type HookName = 'postStart' | 'preStop';

export interface HookPlan {
  handler: LifecycleHandler;
  durationMs: number;
  fails: boolean;
}

const annotations = {
  postStart: { outcome: HookAnnotations.postStart, seconds: HookAnnotations.postStartSeconds },
  preStop: { outcome: HookAnnotations.preStop, seconds: HookAnnotations.preStopSeconds },
};

/** The hook's plan, or undefined when the container has none. Unreadable annotations count as unset. */
export function hookPlan(pod: Pod, container: Container, hook: HookName): HookPlan | undefined {
  const handler = container.lifecycle?.[hook];
  if (!handler) return undefined;
  const keys = annotations[hook];
  let durationMs = (handler.sleep?.seconds ?? 0) * 1000;
  const seconds = scriptFor(pod, keys.seconds, container.name);
  if (seconds !== undefined) {
    try {
      durationMs = parseSimDuration(seconds);
    } catch {
      // keep the handler's own duration
    }
  }
  const fails = !handler.sleep && scriptFor(pod, keys.outcome, container.name)?.trim() === 'fail';
  return { handler, durationMs, fails };
}

/** format.Pod: `name_namespace(uid)`. */
const podRef = (pod: Pod): string => `${pod.metadata.name}_${pod.metadata.namespace ?? 'default'}(${pod.metadata.uid})`;

/** kubelet's handler runner message for a failed hook (also the waiting message after a postStart failure). */
export function hookFailureMessage(pod: Pod, podIP: string, container: Container, handler: LifecycleHandler): string {
  if (handler.httpGet) {
    const h = handler.httpGet;
    const address = `${h.host || podIP}:${resolvePort(container, h.port)}`;
    const url = `${(h.scheme ?? 'HTTP').toLowerCase()}://${address}${h.path ?? ''}`;
    return `HTTP lifecycle hook (${h.path ?? ''}) for Container "${container.name}" in Pod "${podRef(pod)}" failed - error: Get "${url}": dial tcp ${address}: connect: connection refused`;
  }
  const command = handler.exec?.command ?? [];
  return `Exec lifecycle hook ([${command.join(' ')}]) for Container "${container.name}" in Pod "${podRef(pod)}" failed - error: command '${command.join(' ')}' exited with 1: , message: ""`;
}
