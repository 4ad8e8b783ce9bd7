/**
 * What one CloneSet pass works with (the loaded object, its pods and claims, the budgets'
 * predicates), and the per-revision-group counts of docs/design/cloneset.md §7.
 */
import type { KObject } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import { ControllerRevisionHashLabel, LifecycleState } from '../../api/kruise/workloads/labels.js';
import { cloneSetRevisionLabels, revisionHash } from '../../control/inplaceupdate/index.js';
import { podLifecycleState } from '../../control/lifecycle/index.js';
import type { GroupCounts } from './numbers.js';
import type { PodsInFlight } from './ready-flip.js';
import { availability, isPreDeleting, isToDelete, isUpdated, type CloneSet } from './pods.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export interface PassContext {
  client: Client;
  events: EventRecorder;
  expectations: ScaleExpectations;
  /** Pod writes of this controller, keyed `namespace/name`: the cache must show them before the pod is judged again. */
  podUpdates: ResourceVersionExpectations;
  key: string;
  cs: CloneSet;
  /** Active owned pods whose labels match the selector. */
  pods: Pod[];
  /** Every owned pod, inactive (terminating, finished) ones included. */
  owned: Pod[];
  /** Non-terminating owned claims (without PVC reuse: only those of active pods). */
  claims: KObject[];
  /**
   * Present when cloneset-ready-gate runs (ready-flip.ts): it then writes the InPlaceUpdateReady=True
   * that ends an in-place update, and skips the pods held here, whose in-place update a pass is writing.
   */
  readyGate?: PodsInFlight;
  /** Labels of a node from the cache (spread ranking on scale-in); absent when nodes are not watched. */
  nodeLabels?: (node: string) => Record<string, string> | undefined;
  now: number;
  /** Enabled feature gates (docs/design/cloneset.md §15). */
  gate(name: string): boolean;
  isUpdated(pod: Pod): boolean;
  isAvailable(pod: Pod): boolean;
}

/** Pod writes a pass keeps in flight at once: round trips overlap, the API server is not flooded. */
export const podWriteConcurrency = 64;

/**
 * In-place updates a pass keeps in flight: with cloneset-ready-gate's 8 workers, together within
 * the 32 request sockets of a client on HTTP/1.1, so the True writes that end updates are not
 * queued behind the next pods' spec writes (docs/design/performance.md §14; over HTTP/2 requests
 * are streams and nothing queues in the client, §18).
 */
export const inPlaceWriteConcurrency = 24;


export function newPassContext(base: Omit<PassContext, 'isUpdated' | 'isAvailable'>, updateRevision: string): PassContext {
  const minReady = base.cs.spec.minReadySeconds ?? 0;
  return {
    ...base,
    isUpdated: (pod) => isUpdated(pod, updateRevision),
    isAvailable: (pod) => availability(pod, minReady, base.now).available,
  };
}

/**
 * Which pods the scale phase counts as updated: with gate PreparingUpdateAsUpdate also those held in
 * PreparingUpdate, so a pod deleted beside one is recreated at the current revision (§15). The
 * update phase always goes by the revision label.
 */
export function scaleCountsAsUpdated(c: PassContext): (pod: Pod) => boolean {
  if (!c.gate('PreparingUpdateAsUpdate')) return c.isUpdated;
  return (pod) => c.isUpdated(pod) || podLifecycleState(pod) === LifecycleState.PreparingUpdate;
}

/** Gate CloneSetPartitionRollback with two revisions: a grown partition moves pods back (§15). */
export function partitionRollback(c: Pick<PassContext, 'gate'>, current: ControllerRevision, update: ControllerRevision): boolean {
  return c.gate('CloneSetPartitionRollback') && current.metadata.name !== update.metadata.name;
}

/** The revision labels of a pod on `revision`: with gate CloneSetShortHash the bare hash (§15). */
export function podRevisionLabels(c: Pick<PassContext, 'gate'>): (revision: string) => Record<string, string> {
  if (!c.gate('CloneSetShortHash')) return cloneSetRevisionLabels;
  return (revision) => ({ ...cloneSetRevisionLabels(revision), [ControllerRevisionHashLabel]: revisionHash(revision) });
}

/** Counts of the new (updated) and old groups. */
export function groupCounts(c: PassContext, isNew: (pod: Pod) => boolean = c.isUpdated): { nw: GroupCounts; old: GroupCounts } {
  const empty = (): GroupCounts => ({ total: 0, preDeleting: 0, active: 0, toDelete: 0, unavailable: 0 });
  const nw = empty();
  const old = empty();
  for (const pod of c.pods) {
    const g = isNew(pod) ? nw : old;
    g.total++;
    if (isPreDeleting(pod)) {
      g.preDeleting++;
      continue;
    }
    g.active++;
    if (isToDelete(pod, c.cs)) g.toDelete++;
    else if (!c.isAvailable(pod)) g.unavailable++;
  }
  return { nw, old };
}
