/**
 * RBAC decisions: the same Roles, ClusterRoles and bindings on both servers, then the same requests
 * as the bound users, comparing allow/deny, 403 Status bodies and access-review reasons. Scopes,
 * resourceNames, subresources, wildcards and subject kinds here; cases-rbac-policy.ts has the rest.
 */
import { configMap, must, paths, type DiffCase } from './case-kit.js';
import { as, attempt, bind, canI, role, settle } from './rbac-kit.js';

const pods = ['pods'];
const core = [''];

export const rbacCases: DiffCase[] = [
  {
    name: 'rbac: a Role allows in its namespace only; 403 bodies elsewhere',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, ns, 'pod-reader', [{ verbs: ['get', 'list'], apiGroups: core, resources: pods }]);
      await bind(api, ns, 'u1-reads', 'Role/pod-reader', [{ kind: 'User', name: `${ns}-u1` }]);
      const u1 = as(`${ns}-u1`);
      await settle(api, ctx, u1, { verb: 'list', resource: 'pods', namespace: ns });
      return {
        list: await attempt(api, u1, 'GET', paths.pods(ns)),
        otherNamespace: await attempt(api, u1, 'GET', paths.pods('default')),
        allNamespaces: await attempt(api, u1, 'GET', '/api/v1/pods'),
        create: await attempt(api, u1, 'POST', paths.pods(ns), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }),
        getNamed: await attempt(api, u1, 'GET', paths.pods('default', 'x')),
        review: await canI(api, u1, { verb: 'get', resource: 'pods', namespace: ns, name: 'x' }),
      };
    },
  },
  {
    name: 'rbac: ClusterRoleBinding grants cluster-wide, a RoleBinding of a ClusterRole one namespace',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, undefined, `${ns}-nodes`, [{ verbs: ['list'], apiGroups: core, resources: ['nodes', 'configmaps'] }]);
      await bind(api, undefined, `${ns}-u2-nodes`, `ClusterRole/${ns}-nodes`, [{ kind: 'User', name: `${ns}-u2` }]);
      await bind(api, ns, 'u3-nodes', `ClusterRole/${ns}-nodes`, [{ kind: 'User', name: `${ns}-u3` }]);
      const [u2, u3] = [as(`${ns}-u2`), as(`${ns}-u3`)];
      await settle(api, ctx, u2, { verb: 'list', resource: 'nodes' });
      await settle(api, ctx, u3, { verb: 'list', resource: 'configmaps', namespace: ns });
      return {
        clusterNodes: await attempt(api, u2, 'GET', '/api/v1/nodes'),
        clusterConfigMapsAnywhere: await attempt(api, u2, 'GET', '/api/v1/configmaps'),
        namespacedNodes: await attempt(api, u3, 'GET', '/api/v1/nodes'),
        namespacedConfigMaps: await attempt(api, u3, 'GET', paths.configMaps(ns)),
        namespacedElsewhere: await attempt(api, u3, 'GET', paths.configMaps('default')),
        reasons: [await canI(api, u2, { verb: 'list', resource: 'nodes' }), await canI(api, u3, { verb: 'list', resource: 'configmaps', namespace: ns })],
      };
    },
  },
  {
    name: 'rbac: resourceNames allow get of one name, and a list by metadata.name',
    async run(api, ctx) {
      const { ns } = ctx;
      for (const name of ['one', 'two']) must(await api.request('POST', paths.configMaps(ns), configMap(name)), name);
      await role(api, ns, 'cm-one', [{ verbs: ['get', 'list', 'watch'], apiGroups: core, resources: ['configmaps'], resourceNames: ['one'] }]);
      await bind(api, ns, 'u-one', 'Role/cm-one', [{ kind: 'User', name: 'u-one' }]);
      const u = as('u-one');
      await settle(api, ctx, u, { verb: 'get', resource: 'configmaps', namespace: ns, name: 'one' });
      return {
        getOne: await attempt(api, u, 'GET', paths.configMaps(ns, 'one')),
        getTwo: await attempt(api, u, 'GET', paths.configMaps(ns, 'two')),
        list: await attempt(api, u, 'GET', paths.configMaps(ns)),
        listByName: await attempt(api, u, 'GET', `${paths.configMaps(ns)}?fieldSelector=metadata.name%3Done`),
        listByOtherName: await attempt(api, u, 'GET', `${paths.configMaps(ns)}?fieldSelector=metadata.name%3Dtwo`),
        deleteOne: await attempt(api, u, 'DELETE', paths.configMaps(ns, 'one')),
      };
    },
  },
  {
    name: 'rbac: subresources and */subresource rules',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, ns, 'logs', [{ verbs: ['get'], apiGroups: core, resources: ['pods/log'] }, { verbs: ['update', 'get'], apiGroups: ['*'], resources: ['*/scale'] }]);
      await bind(api, ns, 'u-logs', 'Role/logs', [{ kind: 'User', name: 'u-logs' }]);
      const u = as('u-logs');
      await settle(api, ctx, u, { verb: 'get', resource: 'pods', subresource: 'log', namespace: ns, name: 'p' });
      const review = (verb: string, resource: string, subresource: string, group = '') => canI(api, u, { verb, resource, subresource, group, namespace: ns, name: 'x' });
      return {
        log: await review('get', 'pods', 'log'), pod: await review('get', 'pods', ''), status: await review('get', 'pods', 'status'),
        deploymentScale: await review('update', 'deployments', 'scale', 'apps'), deploymentStatus: await review('update', 'deployments', 'status', 'apps'),
        getPod: await attempt(api, u, 'GET', paths.pods(ns, 'x')),
        getScale: await attempt(api, u, 'GET', `${paths.deployments(ns, 'missing')}/scale`),
        putStatus: await attempt(api, u, 'PUT', `${paths.deployments(ns, 'missing')}/status`, {}),
      };
    },
  },
  {
    name: 'rbac: wildcards in verbs, groups and resources',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, ns, 'all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
      await role(api, ns, 'apps-get', [{ verbs: ['get'], apiGroups: ['apps'], resources: ['*'] }]);
      await bind(api, ns, 'u-all', 'Role/all', [{ kind: 'User', name: 'u-all' }]);
      await bind(api, ns, 'u-apps', 'Role/apps-get', [{ kind: 'User', name: 'u-apps' }]);
      const [all, apps] = [as('u-all'), as('u-apps')];
      await settle(api, ctx, all, { verb: 'delete', resource: 'secrets', namespace: ns });
      await settle(api, ctx, apps, { verb: 'get', resource: 'deployments', group: 'apps', namespace: ns, name: 'd' });
      return {
        anything: await canI(api, all, { verb: 'deletecollection', resource: 'widgets', group: 'diff.example.com', namespace: ns }),
        elsewhere: await attempt(api, all, 'GET', paths.configMaps('default')),
        clusterScoped: await attempt(api, all, 'GET', '/api/v1/namespaces'),
        appsDeployment: await attempt(api, apps, 'GET', paths.deployments(ns, 'absent')),
        appsList: await attempt(api, apps, 'GET', paths.deployments(ns)),
        coreGet: await attempt(api, apps, 'GET', paths.configMaps(ns, 'x')),
      };
    },
  },
  {
    name: 'rbac: Group and ServiceAccount subjects',
    async run(api, ctx) {
      const { ns } = ctx;
      await role(api, ns, 'reader', [{ verbs: ['list'], apiGroups: core, resources: ['configmaps'] }]);
      await bind(api, ns, 'group-reads', 'Role/reader', [{ kind: 'Group', name: `${ns}-readers` }]);
      await bind(api, ns, 'sa-reads', 'Role/reader', [{ kind: 'ServiceAccount', name: 'bot', namespace: ns }]);
      const member = as('someone', `${ns}-readers`);
      const bot = as(`system:serviceaccount:${ns}:bot`);
      await settle(api, ctx, member, { verb: 'list', resource: 'configmaps', namespace: ns });
      await settle(api, ctx, bot, { verb: 'list', resource: 'configmaps', namespace: ns });
      return {
        member: await attempt(api, member, 'GET', paths.configMaps(ns)),
        nonMember: await attempt(api, as('someone'), 'GET', paths.configMaps(ns)),
        bot: await attempt(api, bot, 'GET', paths.configMaps(ns)),
        otherBot: await attempt(api, as(`system:serviceaccount:${ns}:other`), 'GET', paths.configMaps(ns)),
        reasons: [await canI(api, member, { verb: 'list', resource: 'configmaps', namespace: ns }), await canI(api, bot, { verb: 'list', resource: 'configmaps', namespace: ns })],
      };
    },
  },
];
