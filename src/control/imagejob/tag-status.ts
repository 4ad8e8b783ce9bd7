/**
 * NodeImage status bookkeeping both writers of it share (the manager marks silent tags failed,
 * the daemon reports pulls): the counters and the lookup of a tag's status of a given version.
 */
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';

type Status = NonNullable<NodeImage['status']>;
export type TagStatus = NonNullable<Status['imageStatuses']>[string]['tags'][number];
export type ImageSpec = NonNullable<NonNullable<NodeImage['spec']>['images']>[string];
export type TagSpec = ImageSpec['tags'][number];

export function tagStatusOf(nodeImage: NodeImage, name: string, tag: string): TagStatus | undefined {
  return nodeImage.status?.imageStatuses?.[name]?.tags.find((t) => t.tag === tag);
}

/** desired = tags in spec; the others count each tag's status of the same version by phase (none: waiting). */
export function countTags(spec: NodeImage['spec'], statuses: Status['imageStatuses']): Omit<Status, 'imageStatuses' | 'firstSyncStatus'> {
  const counts = { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0 };
  for (const [name, image] of Object.entries(spec?.images ?? {})) {
    for (const t of image.tags) {
      counts.desired++;
      const st = statuses?.[name]?.tags.find((s) => s.tag === t.tag && (s.version ?? 0) === (t.version ?? 0));
      if (st?.phase === 'Succeeded') counts.succeeded++;
      else if (st?.phase === 'Failed') counts.failed++;
      else if (st?.phase === 'Pulling') counts.pulling++;
      else counts.waiting++;
    }
  }
  return counts;
}
