/**
 * The manager's part of NodeImage status (docs/design/image-pulling.md §3.3): a tag the daemon
 * never answered for 10 minutes, or an unfinished one past its activeDeadlineSeconds plus 10
 * minutes, is marked Failed; statuses of tags no longer in spec are pruned; counters recomputed.
 */
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';
import { countTags, type TagSpec, type TagStatus } from '../../control/imagejob/index.js';
import { rfc3339, timeOf } from '../../machinery/time.js';

/** How long the daemon may stay silent about a tag (upstream's comment says a minute; the code waits ten). */
export const ResponseTimeoutMs = 10 * 60_000;

export interface TimedOutTag {
  name: string;
  tag: TagSpec;
  message: string;
}

export interface StatusResult {
  status: NonNullable<NodeImage['status']>;
  failed: TimedOutTag[];
  /** Milliseconds until the next tag would time out, if any is waiting for the daemon. */
  nextTimeoutMs?: number;
}

export function checkStatus(nodeImage: NodeImage, spec: NodeImage['spec'], now: number): StatusResult {
  const imageStatuses: NonNullable<NonNullable<NodeImage['status']>['imageStatuses']> = {};
  const failed: TimedOutTag[] = [];
  let nextTimeoutMs: number | undefined;
  const soonest = (ms: number) => { nextTimeoutMs = Math.min(nextTimeoutMs ?? Infinity, ms); };
  for (const [name, image] of Object.entries(spec?.images ?? {})) {
    const tags: TagStatus[] = [];
    for (const tag of image.tags) {
      let st = nodeImage.status?.imageStatuses?.[name]?.tags.find((s) => s.tag === tag.tag);
      const created = timeOf(tag.createdAt) ?? now;
      const current = st && (st.version ?? 0) === (tag.version ?? 0);
      const deadline = tag.pullPolicy?.activeDeadlineSeconds;
      let message: string | undefined;
      if (!current) {
        const left = created + ResponseTimeoutMs - now;
        if (left <= 0) message = 'node has not responded for a long time';
        else soonest(left);
      } else if (!st!.completionTime && deadline !== undefined) {
        const left = created + deadline * 1000 + ResponseTimeoutMs - now;
        if (left <= 0) message = 'pulling exceeds the activeDeadlineSeconds';
        else soonest(left);
      }
      if (message) {
        st = { tag: tag.tag, version: tag.version ?? 0, phase: 'Failed', message, completionTime: rfc3339(now), ...(st?.startTime ? { startTime: st.startTime } : {}) };
        failed.push({ name, tag, message });
      }
      if (st) tags.push(st);
    }
    if (tags.length > 0) imageStatuses[name] = { tags };
  }
  const status = { ...nodeImage.status, ...countTags(spec, imageStatuses), imageStatuses };
  return { status, failed, nextTimeoutMs };
}
