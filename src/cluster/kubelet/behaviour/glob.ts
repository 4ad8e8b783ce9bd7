/**
 * Globs of the behaviour file: `*` matches any run of characters (slashes and colons included),
 * `?` one character. An image glob matches the reference as written in the pod or normalised the
 * way containerd reports it, so `nginx:*` selects `nginx:1.27` and `docker.io/library/nginx:1.27`.
 */
import { normalizeImage } from '../../../daemon/cri/image-ref.js';

export const isGlob = (pattern: string): boolean => /[*?]/.test(pattern);

export function globMatcher(pattern: string): (text: string) => boolean {
  const source = pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  const re = new RegExp(`^${source}$`);
  return (text) => re.test(text);
}

/** Matches images by exact reference (after normalising both) or by glob. */
export function imageMatcher(pattern: string): (image: string) => boolean {
  if (!isGlob(pattern)) {
    const wanted = normalizeImage(pattern);
    return (image) => normalizeImage(image) === wanted;
  }
  const raw = globMatcher(pattern);
  const normalised = globMatcher(normalizeImage(pattern));
  return (image) => raw(image) || raw(normalizeImage(image)) || normalised(normalizeImage(image));
}
