/**
 * Status writes through the status subresource: the first try uses the cached object, a conflict
 * re-reads it and overwrites `.status` again (a replaced DaemonSet with another uid is left alone).
 */
import type { Client } from '../../client/client.js';
import { retryOnConflict } from '../../client/retry.js';
import { isNotFound } from '../../machinery/errors.js';
import { AdvancedDaemonSets, type DaemonSet, type DaemonSetStatus } from './types.js';

export async function writeStatus(client: Client, ds: DaemonSet, status: DaemonSetStatus): Promise<void> {
  let current = ds;
  let first = true;
  try {
    await retryOnConflict(async () => {
      if (!first) current = await client.get<DaemonSet>(AdvancedDaemonSets, ds.metadata.namespace, ds.metadata.name!);
      first = false;
      if (current.metadata.uid !== ds.metadata.uid) return;
      await client.updateStatus(AdvancedDaemonSets, { ...current, status });
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
