/**
 * The behaviour file's image registry facts (§10) as the fake image service consumes them: tags
 * pinned to a digest or sharing another tag's digest, pulls that fail with a message, and
 * repositories that need credentials. A pull without matching credentials fails the way containerd
 * reports it, so the pod shows kubelet's ErrImagePull with that text.
 */
import { manifestDigest, normalizeImage, parseImage } from '../../../daemon/cri/image-ref.js';
import type { RegistryFacts } from '../../../daemon/cri/fake-images.js';
import type { AuthConfig } from '../../../daemon/cri/types.js';
import { imageMatcher, isGlob } from './glob.js';

export interface ImageFactInput {
  image: string;
  digest?: string;
  sameDigestAs?: string;
  pullError?: string;
  auth?: { username: string; password: string };
}

export interface ImageFactProblem { index: number; field: string; message: string }

/** What the schema cannot check: digests need exact references, aliases must end somewhere. */
export function checkImageFacts(facts: ImageFactInput[]): ImageFactProblem[] {
  const problems: ImageFactProblem[] = [];
  facts.forEach((f, index) => {
    if (f.digest && f.sameDigestAs) problems.push({ index, field: 'sameDigestAs', message: 'give either digest or sameDigestAs, not both' });
    if ((f.digest || f.sameDigestAs) && isGlob(f.image)) problems.push({ index, field: 'image', message: 'a digest belongs to one tag: use an exact reference, not a glob' });
    if (f.sameDigestAs) {
      try { registryFacts(facts).digestOf(f.image); } catch (e) { problems.push({ index, field: 'sameDigestAs', message: (e as Error).message }); }
    }
  });
  return problems;
}

const denied = (ref: string) => `failed to resolve reference "${ref}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
const unauthorized = (ref: string) => {
  const { repository, tag } = parseImage(ref);
  const host = repository.startsWith('docker.io/') ? 'registry-1.docker.io' : repository.slice(0, repository.indexOf('/'));
  return `failed to resolve reference "${ref}": pulling from host ${host} failed with status code [manifests ${tag ?? 'latest'}]: 401 Unauthorized`;
};

function credentialsMatch(wanted: { username: string; password: string }, auth?: AuthConfig): boolean | undefined {
  if (!auth) return undefined;
  let { username, password } = auth;
  if (!username && auth.auth) [username, password] = Buffer.from(auth.auth, 'base64').toString().split(/:(.*)/s);
  if (!username) return undefined;
  return username === wanted.username && (password ?? '') === wanted.password;
}

export function registryFacts(facts: ImageFactInput[]): RegistryFacts {
  const matchers = facts.map((f) => ({ fact: f, matches: imageMatcher(f.image) }));
  const exact = (image: string) => matchers.find((m) => !isGlob(m.fact.image) && m.matches(image) && (m.fact.digest || m.fact.sameDigestAs))?.fact;
  const digestOf = (image: string, seen: string[] = []): string | undefined => {
    const fact = exact(image);
    if (!fact) return undefined;
    if (fact.digest) return fact.digest;
    const target = normalizeImage(fact.sameDigestAs!);
    if (seen.includes(target)) throw new Error(`digest aliases loop: ${[...seen, target].join(' -> ')}`);
    return digestOf(target, [...seen, normalizeImage(image)]) ?? manifestDigest(target);
  };
  return {
    digestOf: (image) => digestOf(image),
    pullError(image, auth) {
      const ref = normalizeImage(image);
      for (const { fact, matches } of matchers) {
        if (!matches(image)) continue;
        if (fact.pullError) return fact.pullError;
        if (fact.auth) {
          const ok = credentialsMatch(fact.auth, auth);
          if (ok === undefined) return denied(ref);
          if (!ok) return unauthorized(ref);
        }
      }
      return undefined;
    },
  };
}
