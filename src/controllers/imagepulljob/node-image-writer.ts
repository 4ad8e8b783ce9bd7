/**
 * Writes jobs into NodeImages (docs/design/image-pulling.md §4.3). Many jobs add tags to the same
 * NodeImages while the daemon rewrites their status, so a whole-object update would mostly meet
 * conflicts; instead one image entry at a time goes in as a merge patch. Writes to one NodeImage
 * are serialized here, and each starts from our own last write when the cache has not caught up
 * with it, so two jobs of this controller never overwrite each other's tags.
 */
import { NodeImages } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { splitImage, type ImagePullJobObject, type NodeImageObject } from '../../control/imagejob/index.js';
import type { Informer } from '../../runtime/informer.js';
import { nodeState, withJobTag, type SecretRef } from './node-image-tag.js';

const newer = (a: NodeImageObject, b: NodeImageObject) => Number(a.metadata.resourceVersion) > Number(b.metadata.resourceVersion);

export class NodeImageWriter {
  private readonly written = new Map<string, NodeImageObject>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly d: { client: Client; nodeImages: Informer<NodeImageObject>; random: () => number }) {}

  /** The cached NodeImage, or our own write when the cache is older than it. */
  latest(name: string): NodeImageObject | undefined {
    const cached = this.d.nodeImages.get(undefined, name);
    const own = this.written.get(name);
    if (own && (!cached || newer(own, cached))) return own;
    this.written.delete(name);
    return cached;
  }

  /** Adds the job's tag and secret references to NodeImage `name` unless they are there. */
  addJob(name: string, job: ImagePullJobObject, refs: SecretRef[], now: number): Promise<void> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.then(async () => {
      const ni = this.latest(name);
      if (!ni || nodeState(ni, job, refs) !== 'notSynced') return;
      const image = splitImage(job.spec!.image).name;
      const entry = withJobTag(ni, job, refs, now, this.d.random).images![image];
      const out = await this.d.client.patch<NodeImageObject>(NodeImages, undefined, name, 'merge', { spec: { images: { [image]: entry } } });
      this.written.set(name, out);
    });
    const tail = next.catch(() => undefined).finally(() => { if (this.queues.get(name) === tail) this.queues.delete(name); });
    this.queues.set(name, tail);
    return next;
  }
}
