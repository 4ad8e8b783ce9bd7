/**
 * Pods of one app as workload e2e tests read them: the live ones (not terminating) listed, and a
 * watch that keeps every pod current and runs an invariant check on each event, so nothing that
 * happens between two polls is missed.
 */
import { Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import type { Pod } from '../api/core/index.js';

export const isLive = (pod: Pod): boolean => !pod.metadata.deletionTimestamp;

const byName = (a: Pod, b: Pod): number => a.metadata.name!.localeCompare(b.metadata.name!);

/** Live pods labelled `app=<app>`, sorted by name. */
export async function livePods(client: Client, namespace: string, app: string): Promise<Pod[]> {
  const list = await client.list<Pod>(Pods, { namespace, labelSelector: `app=${app}` });
  return list.items.filter(isLive).sort(byName);
}

export interface PodEvent {
  type: string;
  pod: Pod;
}

/** What a check sees after each event: every pod (terminating included), the live ones, the event. */
export interface PodSnapshot {
  all: Pod[];
  live: Pod[];
  event: PodEvent;
}

export interface PodWatch {
  all(): Pod[];
  live(): Pod[];
  /** Every pod event seen, in order. */
  history(): PodEvent[];
  /** The first broken invariant, or the watch ending early. */
  violation(): string | undefined;
  stop(): void;
}

/** Watches pods labelled `app=<app>`; `check` runs after every event (it may also record statistics). */
export async function watchPods(
  client: Client, namespace: string, app: string, check: (s: PodSnapshot) => string | undefined = () => undefined,
): Promise<PodWatch> {
  const labelSelector = `app=${app}`;
  const list = await client.list<Pod>(Pods, { namespace, labelSelector });
  const pods = new Map(list.items.map((p) => [p.metadata.name!, p]));
  const events: PodEvent[] = [];
  const live = () => [...pods.values()].filter(isLive);
  let violation: string | undefined;
  let closed: unknown;
  const handle = client.watch<Pod>(Pods, { namespace, labelSelector, resourceVersion: list.metadata?.resourceVersion }, {
    onEvent(e) {
      const pod = e.object as Pod;
      if (e.type === 'DELETED') pods.delete(pod.metadata.name!);
      else if (e.type === 'ADDED' || e.type === 'MODIFIED') pods.set(pod.metadata.name!, pod);
      else return;
      const event = { type: e.type, pod };
      events.push(event);
      const broken = check({ all: [...pods.values()], live: live(), event });
      violation ??= broken;
    },
    onClose(error) { closed = error ?? 'closed'; },
  });
  return {
    all: () => [...pods.values()],
    live,
    history: () => events,
    violation: () => violation ?? (closed ? `pod watch ended early: ${String(closed)}` : undefined),
    stop: () => handle.stop(),
  };
}
