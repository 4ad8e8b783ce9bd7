/**
 * The TTL-after-finished controller: a Job with `ttlSecondsAfterFinished` is deleted (foreground,
 * so its pods go first) that many seconds after its Complete or Failed condition was set. It
 * re-reads the Job before deleting, since the TTL may have been changed or removed meanwhile.
 */
import { Jobs } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isNotFound } from '../../../machinery/errors.js';
import type { ReconcileContext, Request, Result } from '../../../runtime/controller.js';
import type { Informer } from '../../../runtime/informer.js';
import { finishedCondition } from './types.js';
import { timeOf } from '../../../machinery/time.js';
import type { Job } from '../../../api/core/index.js';

/** When the Job may be deleted, or undefined when it has no TTL or has not finished. */
export function ttlExpiry(job: Job): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null) return undefined;
  const finished = finishedCondition(job);
  if (!finished) return undefined;
  const at = timeOf(finished.lastTransitionTime) ?? timeOf(job.status?.completionTime);
  return at === undefined ? undefined : at + ttl * 1000;
}

export class TtlAfterFinishedReconciler {
  constructor(private readonly client: Client, private readonly jobs: Informer<Job>) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const cached = this.jobs.get(req.namespace, req.name);
    if (!cached || cached.metadata.deletionTimestamp) return {};
    const expiry = ttlExpiry(cached);
    if (expiry === undefined) return {};
    const now = ctx.clock.now();
    if (expiry > now) return { requeueAfterMs: expiry - now };
    let fresh: Job;
    try {
      fresh = await this.client.get<Job>(Jobs, req.namespace, req.name);
    } catch (e) {
      if (isNotFound(e)) return {};
      throw e;
    }
    const freshExpiry = ttlExpiry(fresh);
    if (freshExpiry === undefined || fresh.metadata.deletionTimestamp) return {};
    if (freshExpiry > now) return { requeueAfterMs: freshExpiry - now };
    ctx.log.info({ job: { namespace: req.namespace, name: req.name } }, 'Cleaning up finished Job');
    try {
      await this.client.delete(Jobs, req.namespace, req.name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    return {};
  }
}
