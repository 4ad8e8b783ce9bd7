/**
 * Create-only review resources answered by the server itself: SelfSubjectAccessReview
 * (`kubectl auth can-i`; the embedded server authorizes every authenticated user) and
 * SelfSubjectReview (`kubectl auth whoami`).
 */
import type { KObject } from '../../api/meta.js';
import { type ServedResource, apiVersionOf } from '../registry/served-resource.js';
import type { ResourceRequestInfo } from './request-info.js';
import type { ApiRequest, ApiResponse } from '../../api/request.js';
import { decodeObject } from './body.js';

export function reviewResponse(r: ServedResource, info: ResourceRequestInfo, req: ApiRequest): ApiResponse | undefined {
  const d = r.definition;
  if (info.verb !== 'create') return undefined;
  if (d.group === 'authorization.k8s.io' && (d.plural === 'selfsubjectaccessreviews' || d.plural === 'subjectaccessreviews')) {
    const body = decodeObject(req.body, req.headers['content-type']);
    const allowed = !req.user.groups.includes('system:unauthenticated');
    return { code: 201, body: { ...body, apiVersion: apiVersionOf(d), kind: d.kind, metadata: body.metadata ?? {}, status: { allowed, reason: allowed ? 'embedded apiserver allows authenticated users' : '' } } };
  }
  if (d.group === 'authentication.k8s.io' && d.plural === 'selfsubjectreviews') {
    const u = req.user;
    const review: KObject = { apiVersion: apiVersionOf(d), kind: d.kind, metadata: {}, status: { userInfo: { username: u.username, uid: u.uid, groups: u.groups } } };
    return { code: 201, body: review };
  }
  return undefined;
}
