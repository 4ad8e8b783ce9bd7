/**
 * RBAC policy beyond single bindings: bindings to missing roles, ClusterRole aggregation (a role of
 * our own and `view`), nonResourceURLs, and what the bootstrap policy gives every user by default.
 */
import { paths, type DiffCase } from './case-kit.js';
import { as, attempt, bind, canI, clusterRolePath, role, settle } from './rbac-kit.js';

const pods = ['pods'];
const core = [''];

export const rbacPolicyCases: DiffCase[] = [
  {
    name: 'rbac: a binding to a missing Role or ClusterRole is named in the 403',
    async run(api, ctx) {
      const { ns } = ctx;
      await bind(api, ns, 'dangling', 'Role/missing', [{ kind: 'User', name: 'u-dangling' }]);
      await bind(api, ns, 'dangling-cluster', `ClusterRole/${ns}-missing`, [{ kind: 'User', name: 'u-dangling2' }]);
      await ctx.poll(() => api.request('GET', paths.pods(ns), undefined, as('u-dangling')), (r) => r.text.includes('not found'));
      return {
        role: await attempt(api, as('u-dangling'), 'GET', paths.pods(ns)),
        clusterRole: await attempt(api, as('u-dangling2'), 'GET', paths.pods(ns, 'p')),
        review: await canI(api, as('u-dangling'), { verb: 'list', resource: 'pods', namespace: ns }),
      };
    },
  },
  {
    name: 'rbac: aggregation fills a ClusterRole from labelled ClusterRoles',
    async run(api, ctx) {
      const { ns } = ctx;
      const label = { [`diff.example.com/${ns}`]: 'true' };
      await role(api, undefined, `${ns}-agg`, [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: label }] } });
      await role(api, undefined, `${ns}-b`, [{ verbs: ['get'], apiGroups: core, resources: ['secrets'] }, { verbs: ['list'], apiGroups: core, resources: pods }], { labels: label });
      const rules = async () => (await api.request('GET', clusterRolePath(`${ns}-agg`))).body.rules ?? [];
      const first = await ctx.poll(rules, (r) => r.length === 2);
      // Same rules from a role sorting first: kube compares rule sets, so the order stays as it was.
      await role(api, undefined, `${ns}-a`, [{ verbs: ['list'], apiGroups: core, resources: pods }], { labels: label });
      await role(api, undefined, `${ns}-c`, [{ verbs: ['watch'], apiGroups: core, resources: pods }], { labels: label });
      const filled = { first, then: await ctx.poll(rules, (r) => r.length === 3) };
      await bind(api, ns, 'u-agg', `ClusterRole/${ns}-agg`, [{ kind: 'User', name: 'u-agg' }]);
      await settle(api, ctx, as('u-agg'), { verb: 'get', resource: 'secrets', namespace: ns, name: 's' });
      return { filled, secrets: await attempt(api, as('u-agg'), 'GET', `/api/v1/namespaces/${ns}/secrets/s`) };
    },
  },
  {
    name: 'rbac: view picks up a ClusterRole labelled aggregate-to-view',
    async run(api, ctx) {
      const { ns } = ctx;
      await bind(api, ns, 'u-view', 'ClusterRole/view', [{ kind: 'User', name: 'u-view' }]);
      const u = as('u-view');
      await settle(api, ctx, u, { verb: 'list', resource: 'pods', namespace: ns });
      const before = await canI(api, u, { verb: 'list', resource: `${ns}s`, group: 'diff.example.com', namespace: ns });
      await role(api, undefined, `${ns}-view-ext`, [{ verbs: ['list'], apiGroups: ['diff.example.com'], resources: [`${ns}s`] }], { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } });
      await settle(api, ctx, u, { verb: 'list', resource: `${ns}s`, group: 'diff.example.com', namespace: ns });
      return {
        before, after: await canI(api, u, { verb: 'list', resource: `${ns}s`, group: 'diff.example.com', namespace: ns }),
        secrets: await canI(api, u, { verb: 'get', resource: 'secrets', namespace: ns }),
        edit: await canI(api, u, { verb: 'create', resource: 'deployments', group: 'apps', namespace: ns }),
      };
    },
  },
  {
    name: 'rbac: nonResourceURLs, exact and prefix*',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, undefined, `${ns}-paths`, [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }]);
      const u = as(`${ns}-paths`);
      const before = await attempt(api, u, 'GET', '/metrics');
      await bind(api, undefined, `${ns}-paths`, `ClusterRole/${ns}-paths`, [{ kind: 'User', name: `${ns}-paths` }]);
      await settle(api, ctx, u, { verb: 'get', path: '/metrics' });
      const review = (path: string, verb = 'get') => canI(api, u, { path, verb });
      return {
        before, after: await attempt(api, u, 'GET', '/metrics'),
        prefix: await review('/logs/kube-apiserver.log'), prefixItself: await review('/logs'), post: await review('/metrics', 'post'),
        version: await attempt(api, u, 'GET', '/version'), apiDiscovery: await attempt(api, u, 'GET', '/apis'),
      };
    },
  },
  {
    name: 'rbac: what every authenticated and anonymous user may do by default',
    async run(api) {
      const user = as('fresh-user');
      const anonymous = as('system:anonymous');
      return {
        discovery: await attempt(api, user, 'GET', '/api'),
        namespaces: await attempt(api, user, 'GET', '/api/v1/namespaces'),
        selfReview: await canI(api, user, { verb: 'create', resource: 'selfsubjectaccessreviews', group: 'authorization.k8s.io' }),
        anonymousVersion: await attempt(api, anonymous, 'GET', '/version'),
        anonymousHealth: await attempt(api, anonymous, 'GET', '/healthz'),
        anonymousDiscovery: await attempt(api, anonymous, 'GET', '/api'),
        anonymousPods: await attempt(api, anonymous, 'GET', '/api/v1/namespaces/default/pods'),
      };
    },
  },
];
