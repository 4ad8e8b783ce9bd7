/**
 * One pull task: a tag of an image at one version of the NodeImage spec (docs/design/image-pulling.md
 * §6.2). Waiting for a slot, then Pulling (reported before the blocking call), then up to
 * backoffLimit + 1 attempts, each bounded by timeoutSeconds and by what is left of
 * activeDeadlineSeconds, with a back-off of 1 s doubling to 30 s between them.
 */
import { PullingImageByAnnotation, PullingImageByKruiseDaemon } from '../../api/kruise/ops/nodeimage.js';
import { imageReference, type ImageSpec, type TagSpec, type TagStatus } from '../../control/imagejob/index.js';
import { sleep, withTimeout, type Clock } from '../../machinery/clock.js';
import { rfc3339 } from '../../machinery/time.js';
import { normalizeImage } from '../cri/image-ref.js';
import type { ImageService } from '../cri/services.js';
import type { PullCredentials } from './credentials.js';
import type { PullSlots } from './slots.js';

export interface TagWorkerDeps {
  images: ImageService;
  credentials: PullCredentials;
  slots: PullSlots;
  clock: Clock;
  /** Called whenever the status changed. */
  onChange(): void;
}

const maxBackoffMs = 30_000;

export class TagWorker {
  status: TagStatus;
  private readonly abort = new AbortController();

  constructor(readonly name: string, readonly tag: TagSpec, private readonly image: ImageSpec, private readonly d: TagWorkerDeps) {
    this.status = { tag: tag.tag, version: tag.version ?? 0, phase: 'Waiting', progress: 0 };
  }

  get version(): number { return this.tag.version ?? 0; }
  get finished(): boolean { return this.status.completionTime !== undefined; }

  start(): void {
    void this.run().catch((e: unknown) => this.finish('Failed', (e as Error).message));
  }

  stop(): void {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const release = await this.d.slots.acquire(this.abort.signal);
    if (!release) return;
    try {
      const started = this.d.clock.now();
      this.update({ phase: 'Pulling', startTime: rfc3339(started) });
      const policy = this.tag.pullPolicy ?? {};
      const backoffLimit = policy.backoffLimit ?? 3;
      const attempts = backoffLimit < 0 ? 3 : backoffLimit + 1;
      const timeoutMs = (policy.timeoutSeconds ?? 600) * 1000;
      const deadline = policy.activeDeadlineSeconds !== undefined ? started + policy.activeDeadlineSeconds * 1000 : Infinity;
      let backoffMs = 1000;
      let lastError = '';
      for (let i = 0; i < attempts && !this.abort.signal.aborted; i++) {
        const left = deadline - this.d.clock.now();
        if (left <= 0) return this.finish('Failed', 'pulling exceeds the activeDeadlineSeconds');
        try {
          const imageId = await withTimeout(this.d.clock, this.attempt(), Math.min(timeoutMs, left), () => new Error(`pulling image timed out after ${Math.round(Math.min(timeoutMs, left) / 1000)}s`));
          return this.finish('Succeeded', undefined, imageId);
        } catch (e) {
          lastError = (e as Error).message;
        }
        if (i + 1 < attempts) {
          await sleep(this.d.clock, backoffMs, this.abort.signal);
          backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
        }
      }
      if (!this.abort.signal.aborted) this.finish('Failed', lastError);
    } finally {
      release();
    }
  }

  /** One attempt; resolves with `<name>@<image id>`. An image already present (IfNotPresent) is not pulled. */
  private async attempt(): Promise<string> {
    const ref = imageReference(this.name, this.tag.tag);
    if (this.tag.imagePullPolicy !== 'Always') {
      const present = await this.presentId(ref);
      if (present) return present;
    }
    const { auths, refused } = await this.d.credentials.forImage(ref, this.image.pullSecrets ?? []);
    if (auths.length === 0 && refused.length > 0) throw new Error(`refusing pull secrets outside the daemon config namespace: ${refused.join(', ')}`);
    const sandbox = {
      metadata: { name: '', uid: '', namespace: '', attempt: 0 }, labels: this.image.sandboxConfig?.labels,
      annotations: { ...this.image.sandboxConfig?.annotations, [PullingImageByAnnotation]: PullingImageByKruiseDaemon },
    };
    const failures: string[] = [];
    for (const auth of auths.length > 0 ? auths : [undefined]) {
      try {
        await this.d.images.pullImage({ image: ref }, auth, sandbox);
        return (await this.presentId(ref)) ?? `${this.name}@unknown`;
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    throw new Error(failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`);
  }

  private async presentId(ref: string): Promise<string | undefined> {
    const wanted = normalizeImage(ref);
    const image = (await this.d.images.listImages()).find((i) => i.repoTags.includes(wanted) || i.repoDigests.some((d) => wanted.endsWith(d)));
    return image && `${this.name}@${image.id}`;
  }

  private finish(phase: 'Succeeded' | 'Failed', message?: string, imageID?: string): void {
    if (this.abort.signal.aborted || this.finished) return;
    this.update({ phase, completionTime: rfc3339(this.d.clock.now()), progress: phase === 'Succeeded' ? 100 : this.status.progress, ...(message ? { message } : {}), ...(imageID ? { imageID } : {}) });
  }

  private update(change: Partial<TagStatus>): void {
    this.status = { ...this.status, ...change };
    this.d.onChange();
  }
}
