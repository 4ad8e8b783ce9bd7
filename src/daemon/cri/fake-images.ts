/**
 * In-memory ImageService of one node: an image is pulled once, taking `pullDelayMs` on the injected
 * clock, and concurrent pulls of the same image with the same credentials share that one pull. Tags
 * resolve to digests through the simulated registry's facts, so two tags of one manifest are one
 * image with two repoTags, and pulls may fail or need credentials.
 */
import { sleep, type Clock } from '../../machinery/clock.js';
import { imageIdOf, manifestDigest, normalizeImage, parseImage, repoDigest } from './image-ref.js';
import { CriError, type ImageService } from './services.js';
import type { AuthConfig, Image, ImageFilter, ImageSpec } from './types.js';

export interface FakeImageServiceOptions {
  clock: Clock;
  pullDelayMs?: number;
  /** Return an error message to make pulls of that image fail (K8: unreachable registry, auth). */
  pullError?: (image: string, auth?: AuthConfig) => string | undefined;
  /** Called after an image is pulled or removed (the runtime keeps its state on disk). */
  onStateChange?: () => void;
  registry?: RegistryFacts;
}

/** What the simulated registry knows beyond the default (docs/design/simulated-nodes.md §10). */
export interface RegistryFacts {
  /** The manifest digest `image` resolves to; undefined: sha256 of the normalised reference. */
  digestOf(image: string): string | undefined;
  /** Why a pull of `image` with these credentials fails; undefined when it succeeds. */
  pullError(image: string, auth?: AuthConfig): string | undefined;
}

export class FakeImageService implements ImageService {
  private readonly images = new Map<string, Image>(); // image id -> image
  private readonly pulling = new Map<string, Promise<string>>(); // normalised ref and credentials -> pull
  /** Number of pulls that actually went to the (simulated) registry. */
  pulls = 0;
  /** Number of PullImage requests, present images and shared pulls included. */
  pullRequests = 0;

  constructor(private readonly options: FakeImageServiceOptions) {}

  async pullImage(spec: ImageSpec, auth?: AuthConfig): Promise<string> {
    this.pullRequests++;
    const ref = normalizeImage(spec.image);
    // Only pulls with the same credentials share: each request authenticates for itself, so one
    // pod's missing or wrong credentials never fail (or pass) another pod's pull.
    const key = `${ref} ${JSON.stringify(auth ?? {})}`;
    const inFlight = this.pulling.get(key);
    if (inFlight) return inFlight;
    const pull = this.pull(spec.image, ref, auth).finally(() => this.pulling.delete(key));
    this.pulling.set(key, pull);
    return pull;
  }

  private async pull(image: string, ref: string, auth?: AuthConfig): Promise<string> {
    const present = this.find(image);
    if (present) return present.id;
    this.pulls++;
    if (this.options.pullDelayMs) await sleep(this.options.clock, this.options.pullDelayMs);
    const failure = this.options.pullError?.(image, auth) ?? this.options.registry?.pullError(image, auth);
    if (failure) throw new CriError('Unknown', `failed to pull and unpack image "${ref}": ${failure}`);
    const id = imageIdOf(this.digestOf(image));
    const existing = this.images.get(id) ?? { id, repoTags: [], repoDigests: [], size: imageSize(id) };
    const { tag } = parseImage(image);
    if (tag) addOnce(existing.repoTags, `${parseImage(image).repository}:${tag}`);
    addOnce(existing.repoDigests, this.imageRef(image));
    this.images.set(id, existing);
    this.options.onStateChange?.();
    return id;
  }

  async listImages(filter?: ImageFilter): Promise<Image[]> {
    const all = [...this.images.values()];
    const wanted = filter?.image?.image;
    return structuredClone(wanted ? all.filter((i) => i === this.find(wanted)) : all);
  }

  async imageStatus(spec: ImageSpec): Promise<Image | undefined> {
    const image = this.find(spec.image);
    return image && structuredClone(image);
  }

  async removeImage(spec: ImageSpec): Promise<void> {
    const image = this.find(spec.image);
    if (image) this.images.delete(image.id);
    this.options.onStateChange?.();
  }

  /** The images present, as the runtime's state file keeps them. */
  snapshot(): Image[] {
    return structuredClone([...this.images.values()]);
  }

  restore(images: Image[]): void {
    for (const image of images) this.images.set(image.id, structuredClone(image));
  }

  /** Synchronous lookup for the runtime service (by tag, repo digest or image id). */
  find(image: string): Image | undefined {
    if (image.startsWith('sha256:')) return this.images.get(image);
    const byId = this.images.get(imageIdOf(this.digestOf(image)));
    if (!byId) return undefined;
    const { tag } = parseImage(image);
    const named = tag ? byId.repoTags.includes(`${parseImage(image).repository}:${tag}`) : byId.repoDigests.includes(this.imageRef(image));
    return named ? byId : undefined;
  }

  /** `repo@sha256:...` of the manifest `image` resolves to: the CRI imageRef and the pod's `imageID`. */
  imageRef(image: string): string {
    return repoDigest(image, this.digestOf(image));
  }

  private digestOf(image: string): string {
    return parseImage(image).digest ?? this.options.registry?.digestOf(image) ?? manifestDigest(image);
  }
}

function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

/** A plausible, deterministic size (10-100 MB) so listings look like a real node's. */
function imageSize(id: string): number {
  return 10_000_000 + (parseInt(id.slice(7, 15), 16) % 90_000_000);
}
