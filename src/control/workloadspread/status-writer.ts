/**
 * Status writes of WorkloadSpreads from several writers at once (the pod webhooks on every pod
 * create/delete, the controller): docs/design/workloadspread.md §5. Every writer of the process
 * shares one lock per WorkloadSpread uid and one write-through cache of the newest copies (upstream's
 * global keyed mutex and cache): a change starts from the newest copy known (the cache or the
 * caller's, whichever has the higher resourceVersion), so the webhook does not conflict with the
 * controller's last write; on a conflict the object is read again from the API server. Uids are
 * unique, so writers of separate managers in one process (tests) never see each other's objects.
 */
import type { Spread as WorkloadSpread } from './subsets.js';
import { WorkloadSpreads } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { isConflict } from '../../machinery/errors.js';

const maxAttempts = 10;

export interface StatusChange<R> {
  result: R;
  /** The copy to write (its status changed), or undefined to write nothing. */
  write?: WorkloadSpread;
}

function newer(a: WorkloadSpread | undefined, b: WorkloadSpread): WorkloadSpread {
  if (!a) return b;
  try {
    return BigInt(a.metadata.resourceVersion ?? '0') > BigInt(b.metadata.resourceVersion ?? '0') ? a : b;
  } catch {
    return b;
  }
}

const locks = new Map<string, Promise<unknown>>();
const newest = new Map<string, WorkloadSpread>();

export class SpreadStatusWriter {
  private readonly locks = locks;
  private readonly newest = newest;

  constructor(private readonly client: Client) {}

  /** Runs `change` on a copy of the newest known object, under the object's lock, and writes what it returns. */
  async update<R>(known: WorkloadSpread, change: (copy: WorkloadSpread) => StatusChange<R>): Promise<R> {
    const uid = known.metadata.uid ?? `${known.metadata.namespace}/${known.metadata.name}`;
    const previous = this.locks.get(uid) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.attempt(uid, known, change));
    this.locks.set(uid, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(uid) === run) this.locks.delete(uid);
    }
  }

  /** Drops the cached copy (the object was deleted). */
  static forget(uid: string): void {
    newest.delete(uid);
  }

  private async attempt<R>(uid: string, known: WorkloadSpread, change: (copy: WorkloadSpread) => StatusChange<R>): Promise<R> {
    let base = newer(this.newest.get(uid), known);
    for (let attempt = 1; ; attempt++) {
      const outcome = change(structuredClone(base));
      if (!outcome.write) return outcome.result;
      try {
        const written = await this.client.updateStatus<WorkloadSpread>(WorkloadSpreads, outcome.write);
        this.newest.set(uid, written);
        return outcome.result;
      } catch (err) {
        if (!isConflict(err) || attempt >= maxAttempts) throw err;
        base = await this.client.get<WorkloadSpread>(WorkloadSpreads, known.metadata.namespace, known.metadata.name!);
        this.newest.set(uid, base);
      }
    }
  }
}
