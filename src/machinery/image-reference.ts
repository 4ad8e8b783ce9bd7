/**
 * Container image references in the distribution/reference grammar (`[domain[:port]/]path[:tag][@digest]`),
 * with that library's error texts, which clients match on. `referenceError` is its Parse (the
 * reference as written); `normalizedReferenceError` is ParseNormalizedNamed, the form containerd and
 * the kruise-daemon pull with (`nginx` → `docker.io/library/nginx`).
 */

const alphaNumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alphaNumeric}(?:${separator}${alphaNumeric})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])`;
const name = `(?:${host}(?::[0-9]+)?/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
const referenceRe = new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`);

const NAME_TOTAL_LENGTH_MAX = 255;
/** Hex lengths of the digest algorithms a registry accepts. */
const digestHexLength: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

function digestError(value: string): string | undefined {
  const colon = value.indexOf(':');
  const algorithm = value.slice(0, colon);
  const hex = value.slice(colon + 1);
  const length = digestHexLength[algorithm];
  if (length === undefined) return 'unsupported digest algorithm';
  if (hex.length !== length) return 'invalid checksum digest length';
  if (!/^[a-f0-9]+$/.test(hex)) return 'invalid checksum digest format';
  return undefined;
}

/** Why `ref` does not parse as written (reference.Parse), or undefined when it does. */
export function referenceError(ref: string): string | undefined {
  const m = referenceRe.exec(ref);
  if (!m) {
    if (ref === '') return 'repository name must have at least one component';
    if (referenceRe.test(ref.toLowerCase())) return 'repository name must be lowercase';
    return 'invalid reference format';
  }
  if (m[1].length > NAME_TOTAL_LENGTH_MAX) return `repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`;
  return m[3] === undefined ? undefined : digestError(m[3]);
}

/** `nginx` → `docker.io/library/nginx`: splits off the registry the way ParseNormalizedNamed does. */
function splitDomain(ref: string): { domain: string; remainder: string } {
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  let domain = 'docker.io';
  let remainder = ref;
  if (slash >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first)) {
    domain = first === 'index.docker.io' ? 'docker.io' : first;
    remainder = ref.slice(slash + 1);
  }
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  return { domain, remainder };
}

/** Why `ref` is not a valid normalisable image reference (ParseNormalizedNamed), or undefined. */
export function normalizedReferenceError(ref: string): string | undefined {
  if (/^[a-f0-9]{64}$/.test(ref)) return `invalid repository name (${ref}), cannot specify 64-byte hexadecimal strings`;
  const { domain, remainder } = splitDomain(ref);
  const colon = remainder.indexOf(':');
  const remoteName = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remoteName.toLowerCase() !== remoteName) return 'invalid reference format: repository name must be lowercase';
  return referenceError(`${domain}/${remainder}`);
}

/** `repo[:tag][@digest]` split at its tag and digest (a colon after the last slash starts the tag). */
export function splitReference(image: string): { repository: string; tag?: string; digest?: string } {
  let repository = image.trim();
  let digest: string | undefined;
  const at = repository.indexOf('@');
  if (at >= 0) {
    digest = repository.slice(at + 1);
    repository = repository.slice(0, at);
  }
  let tag: string | undefined;
  const colon = repository.lastIndexOf(':');
  if (colon > repository.lastIndexOf('/')) {
    tag = repository.slice(colon + 1);
    repository = repository.slice(0, colon);
  }
  return { repository, tag, digest };
}
