/**
 * Image references the way containerd reports them: `nginx` is `docker.io/library/nginx:latest`.
 * A simulated tag's manifest digest is the sha256 of its normalised reference unless the registry
 * says otherwise (docs/design/simulated-nodes.md §10), so the same name yields the same `imageID` on
 * every node and different tags different ones.
 */
import { createHash } from 'node:crypto';
import { splitReference } from '../../machinery/image-reference.js';

export interface ParsedImage {
  /** `docker.io/library/nginx` */
  repository: string;
  tag?: string;
  /** `sha256:...` when the reference pins one. */
  digest?: string;
}

export function parseImage(image: string): ParsedImage {
  const { repository, tag, digest } = splitReference(image);
  return { repository: qualifyRepository(repository), tag: tag ?? (digest ? undefined : 'latest'), digest };
}

/** Adds the default registry (`docker.io`) and, for official images, the `library/` namespace. */
function qualifyRepository(name: string): string {
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasDomain = first.includes('.') || first.includes(':') || first === 'localhost';
  if (hasDomain) return name;
  return slash < 0 ? `docker.io/library/${name}` : `docker.io/${name}`;
}

/** The fully qualified form containerd lists in repoTags (or `repo@digest` for pinned references). */
export function normalizeImage(image: string): string {
  const p = parseImage(image);
  if (p.digest) return p.tag ? `${p.repository}:${p.tag}@${p.digest}` : `${p.repository}@${p.digest}`;
  return `${p.repository}:${p.tag}`;
}

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The default manifest digest of a simulated image (the pinned one when the reference has a digest). */
export function manifestDigest(image: string): string {
  const p = parseImage(image);
  return p.digest ?? sha256(normalizeImage(image));
}

/** `docker.io/library/nginx@sha256:...`: CRI imageRef, and the pod status' `imageID`. */
export function repoDigest(image: string, digest = manifestDigest(image)): string {
  return `${parseImage(image).repository}@${digest}`;
}

/** `sha256:...`: the image id (config digest) of a manifest, distinct from its digest as in containerd. */
export function imageIdOf(digest: string): string {
  return sha256(`config:${digest}`);
}

export function imageId(image: string): string {
  return imageIdOf(manifestDigest(image));
}

/** Whether two references name the same image once normalised (`nginx` and `nginx:latest` do). */
export function sameImage(a: string, b: string): boolean {
  return normalizeImage(a) === normalizeImage(b);
}
