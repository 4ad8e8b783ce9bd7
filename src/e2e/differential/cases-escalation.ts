/**
 * RBAC escalation prevention: a ServiceAccount allowed to write Roles and bindings may grant only
 * what it holds, unless it may `escalate` (roles) or `bind` (the referenced role).
 */
import type { DiffApi, Json } from './api.js';
import type { DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';
import { bind, role, serviceAccountToken, settle } from './rbac-kit.js';

const rbac = 'rbac.authorization.k8s.io';

async function write(api: DiffApi, headers: Record<string, string>, plural: string, ns: string | undefined, body: Json) {
  const res = await api.request('POST', `/apis/${rbac}/v1${ns ? `/namespaces/${ns}` : ''}/${plural}`, { apiVersion: `${rbac}/v1`, ...body }, headers);
  return res.status < 300 ? { http: res.status } : statusOf(res);
}

const roleBody = (name: string, rules: Json[]) => ({ kind: 'Role', metadata: { name }, rules });
const bindingBody = (name: string, kind: string, roleName: string) => ({
  kind: 'RoleBinding', metadata: { name }, roleRef: { apiGroup: rbac, kind, name: roleName }, subjects: [{ kind: 'User', name: 'someone', apiGroup: rbac }],
});

export const escalationCases: DiffCase[] = [
  {
    name: 'rbac escalation: grant only what you hold, unless you may escalate or bind',
    async run(api, ctx) {
      const { ns } = ctx;
      const sa = await serviceAccountToken(api, ns, 'delegate');
      await role(api, ns, 'delegate', [
        { verbs: ['create', 'update'], apiGroups: [rbac], resources: ['roles', 'rolebindings'] },
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      ]);
      await bind(api, ns, 'delegate', 'Role/delegate', [{ kind: 'ServiceAccount', name: 'delegate', namespace: ns }]);
      await role(api, undefined, `${ns}-cr`, [{ verbs: ['create'], apiGroups: [rbac], resources: ['clusterroles'] }]);
      await bind(api, undefined, `${ns}-cr`, `ClusterRole/${ns}-cr`, [{ kind: 'ServiceAccount', name: 'delegate', namespace: ns }]);
      await settle(api, ctx, sa, { verb: 'create', resource: 'roles', group: rbac, namespace: ns });
      await settle(api, ctx, sa, { verb: 'create', resource: 'clusterroles', group: rbac });
      const observed: Json = {
        heldRole: await write(api, sa, 'roles', ns, roleBody('held', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }])),
        widerRole: await write(api, sa, 'roles', ns, roleBody('wider', [{ verbs: ['get', 'delete'], apiGroups: ['', 'apps'], resources: ['pods', 'secrets', 'pods/log'] }, { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }])),
        bindHeld: await write(api, sa, 'rolebindings', ns, bindingBody('held', 'Role', 'held')),
        bindAdmin: await write(api, sa, 'rolebindings', ns, bindingBody('admin', 'ClusterRole', 'admin')),
        bindMissing: await write(api, sa, 'rolebindings', ns, bindingBody('dangling', 'Role', 'missing')),
        aggregated: await write(api, sa, 'clusterroles', undefined, { kind: 'ClusterRole', metadata: { name: `${ns}-agg` }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }),
      };
      await role(api, ns, 'powers', [
        { verbs: ['escalate'], apiGroups: [rbac], resources: ['roles'] },
        { verbs: ['bind'], apiGroups: [rbac], resources: ['clusterroles'], resourceNames: ['view'] },
      ]);
      await bind(api, ns, 'powers', 'Role/powers', [{ kind: 'ServiceAccount', name: 'delegate', namespace: ns }]);
      await settle(api, ctx, sa, { verb: 'escalate', resource: 'roles', group: rbac, namespace: ns });
      observed.escalate = await write(api, sa, 'roles', ns, roleBody('escalated', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]));
      observed.bindView = await write(api, sa, 'rolebindings', ns, bindingBody('view', 'ClusterRole', 'view'));
      observed.bindEdit = await write(api, sa, 'rolebindings', ns, bindingBody('edit', 'ClusterRole', 'edit'));
      return observed;
    },
  },
];
