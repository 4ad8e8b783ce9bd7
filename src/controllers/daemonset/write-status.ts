/**
 * Status writes through the status subresource over `ds`, the newest copy of the DaemonSet (the
 * cache, or this controller's last write while the cache has not caught up: a pass right after a
 * write neither rewrites the same status nor sends the resourceVersion that write replaced). A
 * status equal to that copy's is not written. A conflict is not retried: the object changed, and
 * its event brings a pass that computes status afresh. A DaemonSet that is gone is left alone.
 */
import type { Client } from '../../client/client.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import type { NewestCopies } from '../../runtime/newest-copies.js';
import { statusChanged } from './status.js';
import { AdvancedDaemonSets, type DaemonSet, type DaemonSetStatus } from './types.js';

/** False when the write lost a race (the caller requeues). */
export async function writeStatus(client: Client, written: NewestCopies<DaemonSet>, ds: DaemonSet, status: DaemonSetStatus): Promise<boolean> {
  if (!statusChanged(ds.status, status)) return true;
  try {
    written.note(await client.updateStatus(AdvancedDaemonSets, { ...ds, status }));
  } catch (e) {
    if (isConflict(e)) return false;
    if (!isNotFound(e)) throw e;
  }
  return true;
}
