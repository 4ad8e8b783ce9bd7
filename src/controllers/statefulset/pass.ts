/**
 * What one ASTS pass works with: the set, its revisions, the position array of in-range pods
 * (missing ones filled with not-yet-created pod objects), the condemned pods, the writers'
 * dependencies, and what the pass accumulates (deleted pods, failures, requeue delay).
 */
import type { Client } from '../../client/client.js';
import type { InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import type { Informer } from '../../runtime/informer.js';
import type { Logger } from '../../machinery/log.js';
import type { ReplicaRange } from './ordinals.js';
import type { FailureType } from './status.js';
import type { Slots } from './update-order.js';
import type { Claim, GateReader, StatefulSet } from './types.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export interface PassDeps {
  client: Client;
  events: EventRecorder;
  expectations: ScaleExpectations;
  /** Pod writes of this controller, keyed `namespace/name`: the cache must show them before the pod is judged again. */
  podWrites: ResourceVersionExpectations;
  claims: Informer<Claim>;
  updater: InPlaceUpdater;
  gate: GateReader;
}

export interface PassContext extends PassDeps {
  /** The reconcile's logger (tagged with controller, key and reconcile id). */
  log: Logger;
  key: string;
  set: StatefulSet;
  now: number;
  current: ControllerRevision;
  update: ControllerRevision;
  revisions: ControllerRevision[];
  range: ReplicaRange;
  /** Position i is ordinal range.start + i; undefined marks a reserved hole. */
  slots: Slots;
  /** Out-of-range pods with a parsable ordinal, highest ordinal first. */
  condemned: Pod[];
  deleted: Set<string>;
  failures: Map<FailureType, string>;
  requeueAfterMs?: number;
  /** The pod an OrderedReady replica walk stopped at because it was not available. */
  blockedBy?: Pod;
}


export function requeueAfter(c: PassContext, ms: number | undefined): void {
  if (ms === undefined || ms <= 0) return;
  c.requeueAfterMs = c.requeueAfterMs === undefined ? ms : Math.min(c.requeueAfterMs, ms);
}

/** `Parallel` lets pods start and stop without waiting for their predecessors. */
export const isMonotonic = (set: StatefulSet): boolean => set.spec.podManagementPolicy !== 'Parallel';
