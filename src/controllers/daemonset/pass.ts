/** What one Advanced DaemonSet pass works with: clients, expectation stores, the object, the clock. */
import type { Client } from '../../client/client.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import type { Informer } from '../../runtime/informer.js';
import type { Pod } from '../../api/core/index.js';
import type { DaemonSet } from './types.js';

export interface PassContext {
  client: Client;
  events: EventRecorder;
  /** Creates and deletes, keyed by the DaemonSet's `namespace/name`, pod names as values. */
  expectations: ScaleExpectations;
  /** Pod writes of this controller, keyed `namespace/name` of the pod. */
  podUpdates: ResourceVersionExpectations;
  pods: Informer<Pod>;
  key: string;
  ds: DaemonSet;
  now: number;
}

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The first rejection among settled results, thrown (after every write has finished). */
export function throwFirstFailure(results: PromiseSettledResult<unknown>[]): void {
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
