/**
 * Create-only review resources the server answers itself instead of storing them, one handler per
 * resource in a table the handler looks requests up in (docs/design/authorization.md §7):
 * SelfSubjectAccessReview (`kubectl auth can-i`), SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectRulesReview (`can-i --list`), SelfSubjectReview (`auth whoami`) and TokenReview.
 */
import type { KObject } from '../../api/meta.js';
import type { UserInfo } from '../../api/request.js';
import { errors, field, StatusError, type FieldError } from '../../machinery/errors.js';
import type { Attributes } from '../authz/attributes.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { ResourceRequestInfo } from './request-info.js';

type Json = Record<string, unknown>;

/** Answers one review: the caller's user, the URL's namespace, the decoded body. */
export type ReviewHandler = (user: UserInfo, info: ResourceRequestInfo, body: KObject) => Promise<Json>;

/** Authenticates a bearer token for TokenReview; undefined when it is not valid. */
export type TokenAuthenticator = (token: string) => Promise<UserInfo | undefined>;

const authorization = 'authorization.k8s.io';
const authentication = 'authentication.k8s.io';

export function reviewHandlers(authorizer: Authorizer, authenticateToken?: TokenAuthenticator): Map<string, ReviewHandler> {
  const access = (kind: string, userOf: (user: UserInfo, spec: Json) => UserInfo, local = false): ReviewHandler => async (user, info, body) => {
    const spec = (body.spec ?? {}) as Json;
    const errs = accessSpecErrors(spec, kind);
    const namespace = (spec.resourceAttributes as Json | undefined)?.namespace ?? '';
    if (local && !errs.length && namespace !== (info.namespace ?? '')) errs.push(field.invalid('spec.resourceAttributes.namespace', namespace, 'must match metadata.namespace'));
    if (errs.length) throw reviewInvalid(errs);
    const d = authorizer.authorize(reviewAttributes(userOf(user, spec), spec));
    const status: Json = { allowed: d.decision === 'allow' };
    if (d.decision === 'deny') status.denied = true;
    if (d.reason) status.reason = d.reason;
    return reviewed(body, kind, authorization, status);
  };
  const handlers = new Map<string, ReviewHandler>([
    [`${authorization}/selfsubjectaccessreviews`, access('SelfSubjectAccessReview', (user) => user)],
    [`${authorization}/subjectaccessreviews`, access('SubjectAccessReview', (_user, spec) => specUser(spec))],
    [`${authorization}/localsubjectaccessreviews`, access('LocalSubjectAccessReview', (_user, spec) => specUser(spec), true)],
    [`${authorization}/selfsubjectrulesreviews`, async (user, _info, body) => {
      const namespace = String((body.spec as Json | undefined)?.namespace ?? '');
      const rules = authorizer.rulesFor(user, namespace);
      const status: Json = {
        resourceRules: rules.resourceRules.map((r) => compact({ verbs: r.verbs ?? [], apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
        nonResourceRules: rules.nonResourceRules.map((r) => compact({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs })),
        incomplete: rules.incomplete,
      };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      return reviewed(body, 'SelfSubjectRulesReview', authorization, status);
    }],
    [`${authentication}/selfsubjectreviews`, async (user, _info, body) => {
      const review = reviewed(body, 'SelfSubjectReview', authentication, { userInfo: userInfoJson(user) });
      return { ...review, metadata: { ...(review.metadata as Json), creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') } }; // kube stamps this one
    }],
  ]);
  if (authenticateToken) {
    handlers.set(`${authentication}/tokenreviews`, async (_user, _info, body) => {
      const spec = (body.spec ?? {}) as Json;
      const user = typeof spec.token === 'string' && spec.token ? await authenticateToken(spec.token) : undefined;
      const status: Json = user ? { authenticated: true, user: userInfoJson(user) } : { user: {}, error: 'invalid bearer token' };
      return reviewed(body, 'TokenReview', authentication, status);
    });
  }
  return handlers;
}

/** kube names no kind in a review's 422 (`.authorization.k8s.io "" is invalid: ...`) and details only the group. */
function reviewInvalid(errs: FieldError[]): StatusError {
  const invalid = errors.invalid('', '', authorization, errs);
  return new StatusError(422, 'Invalid', invalid.message, { group: authorization, causes: invalid.details?.causes });
}

/** kube's ValidateSubjectAccessReviewSpec: exactly one kind of attributes, and someone to ask about. */
function accessSpecErrors(spec: Json, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) errs.push(field.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) errs.push(field.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (kind === 'LocalSubjectAccessReview' && spec.nonResourceAttributes) errs.push(field.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
  if (kind !== 'SelfSubjectAccessReview' && !spec.user && !(spec.groups as string[] | undefined)?.length) errs.push(field.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

/** The user a SubjectAccessReview asks about, exactly as given: no `system:authenticated` is added. */
function specUser(spec: Json): UserInfo {
  const user: UserInfo = { username: String(spec.user ?? ''), groups: (spec.groups as string[] | undefined) ?? [] };
  if (spec.uid) user.uid = String(spec.uid);
  if (spec.extra) user.extra = spec.extra as Record<string, string[]>;
  return user;
}

function reviewAttributes(user: UserInfo, spec: Json): Attributes {
  const nonResource = spec.nonResourceAttributes as Json | undefined;
  if (nonResource) return { isResource: false, user, verb: String(nonResource.verb ?? ''), path: String(nonResource.path ?? '') };
  const r = (spec.resourceAttributes ?? {}) as Record<string, string | undefined>;
  return {
    isResource: true, user, verb: r.verb ?? '', group: r.group ?? '', version: r.version || '*', resource: r.resource ?? '',
    subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '',
  };
}

function reviewed(body: KObject, kind: string, group: string, status: Json): Json {
  return { kind, apiVersion: `${group}/v1`, metadata: { creationTimestamp: null, ...(body.metadata ?? {}) }, ...(body.spec !== undefined ? { spec: body.spec } : {}), status };
}

function userInfoJson(user: UserInfo): Json {
  return compact({ username: user.username, uid: user.uid, groups: user.groups, extra: user.extra });
}

function compact(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
}
