/**
 * Writing the `KruisePodReady` entry of a lifecycle state (the hook's markPodNotReady,
 * docs/design/inplace-update.md §9) through pods/status, before the state label moves: a
 * read-modify-update with conflict retry, shared by CloneSet, Advanced StatefulSet and Advanced
 * DaemonSet. The entry is decided anew on each read; a pod replaced under the same name is left alone.
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { updateLatest } from '../../client/update-latest.js';
import { isNotFound } from '../../machinery/errors.js';
import type { LifecycleState } from './hooks.js';
import { readinessForState } from './readiness.js';
import type { Pod } from '../../api/core/index.js';

/** The pod as written, or undefined when nothing needed writing or the pod is gone. */
export async function writeReadinessForState(client: Client, pod: Pod, state: LifecycleState, now: Date): Promise<Pod | undefined> {
  try {
    return await updateLatest<Pod>(client, Pods, pod, (latest) => {
      if (latest.metadata.uid !== pod.metadata.uid) return false;
      const conditions = readinessForState(latest, state, now);
      if (!conditions) return false;
      latest.status = { ...latest.status, conditions };
    }, { status: true });
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
