/**
 * Impersonation, ServiceAccount tokens and the review resources: a ServiceAccount token as a
 * non-privileged requester, the `impersonate` verb on users, groups, uids and userextras, what
 * a TokenRequest answers, and SubjectAccessReview / LocalSubjectAccessReview / SelfSubjectRulesReview.
 */
import type { DiffApi, Json } from './api.js';
import { must, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';
import { as, attempt, bind, role, serviceAccountToken, settle } from './rbac-kit.js';

const whoami = async (api: DiffApi, headers: Record<string, string>) => {
  const res = await api.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, headers);
  if (res.status !== 201) return statusOf(res);
  const { extra, uid, ...rest } = res.body.status.userInfo as Json;
  return { ...rest, uid: uid === undefined ? undefined : typeof uid, extra: extra && Object.keys(extra).sort() };
};

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Json;

export const impersonationCases: DiffCase[] = [
  {
    name: 'impersonation: denied, then allowed by resourceNames on users, groups, uids and userextras',
    async run(api, ctx) {
      const { ns } = ctx;
      const sa = await serviceAccountToken(api, ns, 'imp');
      const requester = { ...sa };
      const denied = {
        user: await attempt(api, { ...requester, ...as('bob') }, 'GET', '/api'),
        sa: await attempt(api, { ...requester, ...as(`system:serviceaccount:${ns}:other`) }, 'GET', '/api'),
      };
      await role(api, undefined, `${ns}-imp`, [
        { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] },
        { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['devs'] },
        { verbs: ['impersonate'], apiGroups: ['authentication.k8s.io'], resources: ['uids'], resourceNames: ['u-1'] },
        { verbs: ['impersonate'], apiGroups: ['authentication.k8s.io'], resources: ['userextras/scopes'], resourceNames: ['read'] },
      ]);
      await bind(api, undefined, `${ns}-imp`, `ClusterRole/${ns}-imp`, [{ kind: 'ServiceAccount', name: 'imp', namespace: ns }]);
      await settle(api, ctx, sa, { verb: 'impersonate', resource: 'users', name: 'bob' });
      return {
        denied,
        bob: await whoami(api, { ...requester, ...as('bob') }),
        bobInDevs: await whoami(api, { ...requester, ...as('bob', 'devs') }),
        bobInOps: await whoami(api, { ...requester, ...as('bob', 'ops') }),
        alice: await whoami(api, { ...requester, ...as('alice') }),
        uid: await whoami(api, { ...requester, ...as('bob'), 'impersonate-uid': 'u-1' }),
        otherUid: await whoami(api, { ...requester, ...as('bob'), 'impersonate-uid': 'u-2' }),
        extra: await whoami(api, { ...requester, ...as('bob'), 'impersonate-extra-scopes': 'read' }),
        otherExtra: await whoami(api, { ...requester, ...as('bob'), 'impersonate-extra-scopes': 'write' }),
      };
    },
  },
  {
    name: 'impersonation: the user the admin becomes',
    async run(api, { ns }) {
      return {
        user: await whoami(api, as('jane')),
        userInGroup: await whoami(api, as('jane', 'devs')),
        alreadyAuthenticated: await whoami(api, as('jane', 'system:authenticated')),
        serviceAccount: await whoami(api, as(`system:serviceaccount:${ns}:bot`)),
        serviceAccountInGroup: await whoami(api, as(`system:serviceaccount:${ns}:bot`, 'devs')),
        anonymous: await whoami(api, as('system:anonymous')),
        uid: await whoami(api, { ...as('jane'), 'impersonate-uid': 'u-9' }),
      };
    },
  },
  {
    name: 'TokenRequest: the answer, the claims, and the token after its ServiceAccount is gone',
    async run(api, ctx) {
      const { ns } = ctx;
      must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'tok' } }), 'sa');
      const res = must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/tok/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api', 'vault'], expirationSeconds: 7200 } }), 'token');
      const token = res.body.status.token as string;
      const claims = claimsOf(token);
      const auth = { authorization: `Bearer ${token}` };
      const user = await whoami(api, auth);
      const defaults = must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/tok/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }), 'token');
      const usable = { authorization: `Bearer ${defaults.body.status.token as string}` };
      const before = await whoami(api, usable);
      must(await api.request('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/tok`), 'delete sa');
      const after = await ctx.poll(() => api.request('GET', '/version', undefined, usable), (r) => r.status === 401);
      return {
        code: res.status, kind: res.body.kind, metadata: Object.keys(res.body.metadata).filter((k) => k !== 'managedFields').sort(),
        spec: res.body.spec, defaultSpec: defaults.body.spec, status: Object.keys(res.body.status).sort(),
        header: JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).alg,
        claims: Object.keys(claims).sort(), aud: claims.aud, iss: claims.iss, sub: claims.sub, lifetime: (claims.exp as number) - (claims.iat as number),
        kube: claims['kubernetes.io'] && Object.keys(claims['kubernetes.io']).sort(),
        otherAudience: user, before, after: statusOf(after),
        errors: {
          short: statusOf(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/none/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 60 } })),
          missing: statusOf(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/none/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} })),
        },
      };
    },
  },
  {
    name: 'reviews: SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectRulesReview',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, ns, 'cm', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] }]);
      await bind(api, ns, 'cm', 'Role/cm', [{ kind: 'User', name: 'rev' }]);
      await settle(api, ctx, as('rev'), { verb: 'get', resource: 'configmaps', namespace: ns, name: 'one' });
      const review = async (path: string, kind: string, spec: Json) => {
        const r = await api.request('POST', path, { apiVersion: 'authorization.k8s.io/v1', kind, spec });
        return r.status === 201 ? r.body.status : statusOf(r);
      };
      const sar = (spec: Json) => review('/apis/authorization.k8s.io/v1/subjectaccessreviews', 'SubjectAccessReview', spec);
      const lsar = (spec: Json) => review(`/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`, 'LocalSubjectAccessReview', spec);
      const rules = await api.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: ns } }, as('rev'));
      const sorted = (list: unknown[] = []) => list.map((r) => JSON.stringify(r)).sort();
      return {
        sarAllowed: await sar({ user: 'rev', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: ns, name: 'one' } }),
        sarDenied: await sar({ user: 'rev', resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: ns } }),
        sarGroupOnly: await sar({ groups: ['system:masters'], resourceAttributes: { verb: 'delete', resource: 'nodes' } }),
        sarNonResource: await sar({ user: 'rev', groups: ['system:authenticated'], nonResourceAttributes: { verb: 'get', path: '/apis' } }),
        sarNobody: await sar({ resourceAttributes: { verb: 'get', resource: 'pods' } }),
        lsar: await lsar({ user: 'rev', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: ns, name: 'one' } }),
        lsarOtherNamespace: await lsar({ user: 'rev', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'default' } }),
        rules: { code: rules.status, resourceRules: sorted(rules.body.status?.resourceRules), nonResourceRules: sorted(rules.body.status?.nonResourceRules), incomplete: rules.body.status?.incomplete },
      };
    },
  },
];
