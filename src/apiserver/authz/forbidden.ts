/**
 * The 403 kube-apiserver answers a denied request with: responsewriters.ForbiddenStatusError's
 * message and apierrors.NewForbidden's details, word for word (docs/design/authorization.md §5).
 */
import type { StatusDetails } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import type { Attributes } from './attributes.js';

export function forbiddenError(attrs: Attributes, reason: string): StatusError {
  const denial = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
  if (!attrs.isResource) return new StatusError(403, 'Forbidden', `forbidden: ${denial}`, {});
  const groupResource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const details: StatusDetails = {};
  if (attrs.name) details.name = attrs.name;
  if (attrs.group) details.group = attrs.group;
  if (attrs.resource) details.kind = attrs.resource;
  const subject = attrs.name ? `${groupResource} ${JSON.stringify(attrs.name)}` : groupResource;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${denial}`, details);
}

export function forbiddenMessage(attrs: Attributes): string {
  const user = JSON.stringify(attrs.user.username);
  if (!attrs.isResource) return `User ${user} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${JSON.stringify(attrs.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.group)} ${where}`;
}
