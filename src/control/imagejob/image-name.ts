/**
 * How NodeImages key images: by the familiar repository name (`nginx`, `foo/bar`,
 * `ghcr.io/a/b`) with the tag apart (`1.25`, or the digest for a pinned reference), the way
 * upstream's daemon utilities split references (docs/design/image-pulling.md §2).
 */
import { splitReference } from '../../machinery/image-reference.js';

export interface ImageNameTag {
  /** Familiar name: no `docker.io/` registry, no `library/` namespace. */
  name: string;
  /** The tag, `latest` when none is written, or `sha256:...` for a reference pinned by digest. */
  tag: string;
}

/** `docker.io/library/nginx:1.25` → `{ name: 'nginx', tag: '1.25' }`. */
export function splitImage(image: string): ImageNameTag {
  const { repository, tag, digest } = splitReference(image);
  return { name: familiarName(repository), tag: digest ?? tag ?? 'latest' };
}

function familiarName(repository: string): string {
  let name = repository;
  for (const prefix of ['docker.io/', 'index.docker.io/']) {
    if (name.startsWith(prefix)) name = name.slice(prefix.length);
  }
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasDomain = first.includes('.') || first.includes(':') || first === 'localhost';
  if (!hasDomain && name.startsWith('library/') && name.split('/').length === 2) name = name.slice('library/'.length);
  return name;
}

/**
 * Whether two references name the same image: `nginx:1.25` as a pod spec writes it and
 * `docker.io/library/nginx:1.25` as the kubelet reports it (containerd's normalised form) do;
 * a missing tag is `latest` (docs/design/inplace-update.md §13).
 */
export function sameImageName(a: string, b: string): boolean {
  const x = splitImage(a);
  const y = splitImage(b);
  return x.name === y.name && x.tag === y.tag;
}

/** The reference a daemon pulls for a NodeImage entry: `nginx:1.25`, or `nginx@sha256:...`. */
export function imageReference(name: string, tag: string): string {
  return tag.includes(':') ? `${name}@${tag}` : `${name}:${tag}`;
}
