/**
 * Where a request meets authorization, after authentication and before routing, as in
 * kube-apiserver's filter chain (docs/design/authorization.md §1): impersonation first, then the
 * request's own attributes. `system:masters` without impersonation is let through before any
 * attribute is computed, so the in-process components' writes pay nothing.
 */
import type { ApiRequest, UserInfo } from '../../api/request.js';
import { requestAttributes } from './attributes.js';
import { privilegedGroup, type Authorizer } from './authorizer.js';
import { forbiddenError } from './forbidden.js';
import { hasImpersonation, impersonate } from './impersonation.js';

export class RequestGate {
  constructor(readonly authorizer: Authorizer) {}

  /** The user the request runs as; throws the 403 (or impersonation error) kube would answer. */
  admit(req: ApiRequest): UserInfo {
    const impersonating = hasImpersonation(req.headers);
    if (!impersonating && req.user.groups.includes(privilegedGroup)) return req.user;
    const user = impersonating ? impersonate(req.user, req.headers, this.authorizer) : req.user;
    const attrs = requestAttributes(user, req.method, req.path, req.query);
    const decision = this.authorizer.authorize(attrs);
    if (decision.decision !== 'allow') throw forbiddenError(attrs, decision.reason);
    return user;
  }
}
