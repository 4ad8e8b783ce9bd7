/**
 * The node's pull tasks (docs/design/image-pulling.md §6.1): one worker per tag of the NodeImage
 * spec whose status for the current version has no completionTime yet. A tag removed from spec,
 * or given a new version, stops its worker; a tag already finished at its version gets none, so
 * a daemon that restarts never pulls a finished task again.
 */
import type { KObject } from '../../api/meta.js';
import { tagStatusOf, type NodeImageObject, type TagStatus } from '../../control/imagejob/index.js';
import type { EventRecorder } from '../../runtime/events.js';
import { TagWorker, type TagWorkerDeps } from './tag-worker.js';

export class NodePuller {
  private readonly workers = new Map<string, TagWorker>(); // `<name> <tag>` -> worker
  private current?: NodeImageObject;

  constructor(private readonly d: Omit<TagWorkerDeps, 'onChange'> & { events: EventRecorder; changed(): void }) {}

  sync(ni: NodeImageObject | undefined): void {
    this.current = ni;
    const wanted = new Set<string>();
    for (const [name, image] of Object.entries(ni?.spec?.images ?? {})) {
      for (const tag of image.tags) {
        const key = `${name} ${tag.tag}`;
        wanted.add(key);
        let worker = this.workers.get(key);
        if (worker && worker.version !== (tag.version ?? 0)) {
          worker.stop();
          this.workers.delete(key);
          worker = undefined;
        }
        const st = tagStatusOf(ni!, name, tag.tag);
        const done = st?.completionTime !== undefined && (st.version ?? 0) === (tag.version ?? 0);
        if (done && worker?.finished) this.workers.delete(key); // written: the status carries it now
        else if (done && worker) { worker.stop(); this.workers.delete(key); } // finished for us by the manager
        else if (!done && !worker) this.startWorker(key, name, tag, image);
      }
    }
    for (const [key, worker] of this.workers) {
      if (!wanted.has(key)) {
        worker.stop();
        this.workers.delete(key);
      }
    }
  }

  /** The live status of a tag's task, when a worker holds it. */
  statusOf(name: string, tag: string, version: number): TagStatus | undefined {
    const w = this.workers.get(`${name} ${tag}`);
    return w && w.version === version ? w.status : undefined;
  }

  stopAll(): void {
    for (const w of this.workers.values()) w.stop();
    this.workers.clear();
  }

  private startWorker(key: string, name: string, tag: TagWorker['tag'], image: ConstructorParameters<typeof TagWorker>[2]): void {
    const worker: TagWorker = new TagWorker(name, tag, image, {
      ...this.d,
      onChange: () => {
        if (worker.finished) this.report(worker);
        this.d.changed();
      },
    });
    this.workers.set(key, worker);
    worker.start();
  }

  private report(w: TagWorker): void {
    const ni = this.current;
    if (!ni) return;
    const image = `${w.name}:${w.tag.tag}`;
    if (w.status.phase === 'Succeeded') {
      this.d.events.event(ni, 'Normal', 'PullImageSucceed', `Image ${image} pulled on node ${ni.metadata.name}`);
      return;
    }
    const text = `Failed to pull image ${image} on node ${ni.metadata.name}: ${w.status.message ?? ''}`;
    this.d.events.event(ni, 'Warning', 'PullImageFailed', text);
    for (const o of w.tag.ownerReferences ?? []) {
      const owner: KObject = { apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.name, namespace: o.namespace, uid: o.uid } };
      this.d.events.event(owner, 'Warning', 'PullImageFailed', text);
    }
  }
}
