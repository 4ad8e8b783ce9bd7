/**
 * What a simulated lifecycle hook does (§15): how long it runs (the `simulate-<hook>-seconds`
 * annotation, else a `sleep` action's seconds, else what an exec command takes as the interpreter
 * reads it (§9), else at once) and whether it fails (`simulate-<hook>: fail`, or an exec command
 * that exits non-zero; a sleep cannot fail), with the message kubelet's handler runner gives for a
 * failed exec or HTTP hook.
 */
import { HookAnnotations, scriptFor } from '../script-annotations.js';
import { parseSimDuration } from '../../../machinery/outcome-script.js';
import { resolvePort } from '../prober/probe-spec.js';
import { readCommand } from '../behaviour/read-command.js';
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
  const exec = execOutcome(container, handler);
  let durationMs = handler.sleep ? handler.sleep.seconds * 1000 : exec?.afterMs ?? 0;
  const seconds = scriptFor(pod, keys.seconds, container.name);
  if (seconds !== undefined) {
    try {
      durationMs = parseSimDuration(seconds);
    } catch {
      // keep the handler's own duration
    }
  }
  const outcome = scriptFor(pod, keys.outcome, container.name)?.trim();
  const fails = !handler.sleep && (outcome === undefined ? (exec?.exitCode ?? 0) !== 0 : outcome === 'fail');
  return { handler, durationMs, fails };
}

/** An exec hook's command read by the interpreter; one that runs until stopped or is unknown counts as instant success. */
function execOutcome(container: Container, handler: LifecycleHandler): { afterMs: number; exitCode: number } | undefined {
  if (!handler.exec?.command?.length) return undefined;
  const reading = readCommand({ command: handler.exec.command, env: container.env, image: container.image });
  return reading.kind === 'plan' && reading.plan.ends === 'exit' ? reading.plan : undefined;
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
