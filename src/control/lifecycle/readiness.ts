/**
 * The `KruisePodReady` condition as a multi-writer not-ready switch (docs/design/kruise-api.md §9, docs/design/inplace-update.md §9;
 * upstream pkg/util/podreadiness): its message is a JSON list of `{userAgent,key}` sorted by
 * userAgent then key; status False while the list is non-empty, True once it empties. Only pods
 * with the `KruisePodReady` readiness gate are touched. Pure: returns the new conditions or
 * undefined when nothing changes; the caller writes them through the status subresource.
 */
import { KruisePodReadyCondition, LifecycleState } from '../../api/kruise/workloads/labels.js';
import { rfc3339 } from '../../machinery/time.js';
import type { PodCondition, Pod } from '../../api/core/index.js';
import { compareStrings as cmp } from '../../machinery/order.js';

export interface ReadinessMessage {
  userAgent: string;
  key: string;
}

/** The user agent and keys the lifecycle rules write. */
export const LifecycleUserAgent = 'Lifecycle';
export const PreDeleteHookKey = 'preDeleteHook';
export const PreUpdateHookKey = 'preUpdateHook';

export function hasKruisePodReadyGate(pod: Pod): boolean {
  return (pod.spec?.readinessGates ?? []).some((g) => g.conditionType === KruisePodReadyCondition);
}

/** Messages in a condition message; unparsable or empty text reads as none. */
export function parseReadinessMessages(message: string | undefined): ReadinessMessage[] {
  if (!message) return [];
  try {
    const parsed: unknown = JSON.parse(message);
    return Array.isArray(parsed) ? (parsed as ReadinessMessage[]) : [];
  } catch {
    return [];
  }
}

/** `[{"userAgent":..,"key":..},...]` sorted by userAgent, then key. */
export function formatReadinessMessages(messages: readonly ReadinessMessage[]): string {
  const sorted = [...messages].sort((a, b) => (a.userAgent === b.userAgent ? cmp(a.key, b.key) : cmp(a.userAgent, b.userAgent)));
  return JSON.stringify(sorted.map((m) => ({ userAgent: m.userAgent, key: m.key })));
}

const same = (a: ReadinessMessage, b: ReadinessMessage) => a.userAgent === b.userAgent && a.key === b.key;

function replaceCondition(pod: Pod, condition: PodCondition): PodCondition[] {
  const others = (pod.status?.conditions ?? []).filter((c) => c.type !== KruisePodReadyCondition);
  const index = (pod.status?.conditions ?? []).findIndex((c) => c.type === KruisePodReadyCondition);
  if (index < 0) return [...others, condition];
  const out = [...(pod.status?.conditions ?? [])];
  out[index] = condition;
  return out;
}

/** Adds `msg` (status False); undefined when the pod has no gate or already lists it. */
export function addNotReadyKey(pod: Pod, msg: ReadinessMessage, now: Date): PodCondition[] | undefined {
  if (!hasKruisePodReadyGate(pod)) return undefined;
  const old = pod.status?.conditions?.find((c) => c.type === KruisePodReadyCondition);
  const messages = parseReadinessMessages(old?.message);
  if (old && old.status === 'False' && messages.some((m) => same(m, msg))) return undefined;
  const next = messages.some((m) => same(m, msg)) ? messages : [...messages, msg];
  return replaceCondition(pod, { ...old, type: KruisePodReadyCondition, status: 'False', message: formatReadinessMessages(next), lastTransitionTime: rfc3339(now) });
}

/** Removes `msg`; status True once the list is empty. Undefined when nothing to remove. */
export function removeNotReadyKey(pod: Pod, msg: ReadinessMessage, now: Date): PodCondition[] | undefined {
  if (!hasKruisePodReadyGate(pod)) return undefined;
  const old = pod.status?.conditions?.find((c) => c.type === KruisePodReadyCondition);
  if (!old) return undefined;
  const messages = parseReadinessMessages(old.message);
  const next = messages.filter((m) => !same(m, msg));
  if (next.length === messages.length) return undefined;
  return replaceCondition(pod, {
    ...old, status: next.length ? old.status : 'True', message: formatReadinessMessages(next), lastTransitionTime: rfc3339(now),
  });
}

/**
 * With markPodNotReady: entering PreparingDelete adds preDeleteHook, PreparingUpdate adds
 * preUpdateHook, Updated removes preUpdateHook. Other states leave the condition alone.
 */
export function readinessForState(pod: Pod, state: LifecycleState, now: Date): PodCondition[] | undefined {
  const msg = (key: string): ReadinessMessage => ({ userAgent: LifecycleUserAgent, key });
  switch (state) {
    case LifecycleState.PreparingDelete: return addNotReadyKey(pod, msg(PreDeleteHookKey), now);
    case LifecycleState.PreparingUpdate: return addNotReadyKey(pod, msg(PreUpdateHookKey), now);
    case LifecycleState.Updated: return removeNotReadyKey(pod, msg(PreUpdateHookKey), now);
    default: return undefined;
  }
}
