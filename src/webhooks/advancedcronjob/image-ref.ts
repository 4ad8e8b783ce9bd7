/**
 * Container image references as the distribution/reference grammar accepts them
 * (`[domain/]path[:tag][@digest]`), with its error wording; used for ImageListPullJob templates.
 */

const pathComponent = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const name = `(?:${domain}/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
const referenceRe = new RegExp(`^(${name})(?::${tag})?(?:@${digest})?$`);
const maxNameLength = 255;

/** Why `image` is not a valid reference, or undefined. */
export function imageReferenceError(image: string): string | undefined {
  const m = referenceRe.exec(image);
  if (!m) return referenceRe.test(image.toLowerCase()) ? 'repository name must be lowercase' : 'invalid reference format';
  if (m[1].length > maxNameLength) return `repository name must not be more than ${maxNameLength} characters`;
  return undefined;
}
