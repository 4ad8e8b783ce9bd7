/**
 * The image puller's reconcile (docs/design/image-pulling.md §6.4): bring the workers in line with
 * the node's NodeImage, then write the whole status (every tag's latest, counters recomputed)
 * when it changed, at most 0.5 writes a second with a burst of 5. Resync every 3-5 s while a task
 * is unfinished, else every 20-30 minutes.
 */
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';
import { NodeImages } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { countTags, type NodeImageObject, type TagStatus } from '../../control/imagejob/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict } from '../../machinery/errors.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import type { NodePuller } from './puller.js';

const writesPerSecond = 0.5;
const writeBurst = 5;
const conflictRetryMs = 200;

export class ImagePullerReconciler {
  private tokens = writeBurst;
  private refilledAt = 0;

  constructor(private readonly d: { client: Client; nodeImages: Informer<NodeImageObject>; puller: NodePuller; random?: () => number }) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const ni = this.d.nodeImages.get(undefined, req.name);
    this.d.puller.sync(ni);
    if (!ni) return;
    const status = this.statusOf(ni);
    const random = this.d.random ?? Math.random;
    if (!deepEqual(status, ni.status ?? {})) {
      const wait = this.takeToken(ctx.clock.now());
      if (wait > 0) return { requeueAfterMs: wait };
      try {
        await this.d.client.updateStatus<NodeImageObject>(NodeImages, { ...ni, status });
      } catch (e) {
        // the manager wrote meanwhile: its event brings the newer object; the workers keep their state
        if (isConflict(e)) return { requeueAfterMs: conflictRetryMs };
        throw e;
      }
    }
    const unfinished = Object.values(status.imageStatuses ?? {}).some((i) => i.tags.some((t) => !t.completionTime)) || status.desired > (status.succeeded ?? 0) + (status.failed ?? 0);
    return { requeueAfterMs: unfinished ? 3000 + random() * 2000 : 20 * 60_000 + random() * 10 * 60_000 };
  }

  /** Every spec tag's status: the worker's while one runs, else what the NodeImage says. */
  private statusOf(ni: NodeImageObject): NonNullable<NodeImage['status']> {
    const imageStatuses: Record<string, { tags: TagStatus[] }> = {};
    for (const [name, image] of Object.entries(ni.spec?.images ?? {})) {
      const tags: TagStatus[] = [];
      for (const tag of image.tags) {
        const st = this.d.puller.statusOf(name, tag.tag, tag.version ?? 0) ?? ni.status?.imageStatuses?.[name]?.tags.find((t) => t.tag === tag.tag);
        if (st) tags.push(st);
      }
      if (tags.length > 0) imageStatuses[name] = { tags };
    }
    return { ...(ni.status?.firstSyncStatus ? { firstSyncStatus: ni.status.firstSyncStatus } : {}), ...countTags(ni.spec, imageStatuses), imageStatuses };
  }

  /** 0 when a write may go now (a token is taken), else the wait for the next token. */
  private takeToken(now: number): number {
    this.tokens = Math.min(writeBurst, this.tokens + ((now - this.refilledAt) / 1000) * writesPerSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens--;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / writesPerSecond) * 1000);
  }
}
