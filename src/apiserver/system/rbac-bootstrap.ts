/**
 * The default RBAC policy, reconciled at every start the way kube-apiserver's
 * rbac/bootstrap-roles hook does (docs/design/authorization.md §10): missing objects are created;
 * existing ones that keep `rbac.authorization.kubernetes.io/autoupdate: "true"` get missing rules,
 * selectors, subjects, labels and annotations added; nothing a user added is removed, and an
 * object whose autoupdate is `"false"` is left alone.
 */
import type { KObject } from '../../api/meta.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { systemContext } from '../registry/context.js';
import type { RegistryReader } from '../registry/reader.js';
import type { Registry } from '../registry/registry.js';
import policy from './bootstrap-policy.gen.json' with { type: 'json' };

const rbac = 'rbac.authorization.k8s.io';
const autoupdate = 'rbac.authorization.kubernetes.io/autoupdate';

const kinds = [
  { kind: 'ClusterRole', plural: 'clusterroles', objects: policy.clusterRoles as unknown as KObject[] },
  { kind: 'Role', plural: 'roles', objects: policy.roles as unknown as KObject[] },
  { kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', objects: policy.clusterRoleBindings as unknown as KObject[] },
  { kind: 'RoleBinding', plural: 'rolebindings', objects: policy.roleBindings as unknown as KObject[] },
];

export async function reconcileBootstrapPolicy(registry: Registry, reader: RegistryReader): Promise<void> {
  const ctx = systemContext();
  for (const { kind, plural, objects } of kinds) {
    const r = registry.table.lookup(rbac, 'v1', plural)!;
    // One kind at a time (roles before their bindings), each kind's writes together: group commit batches them.
    await Promise.all(objects.map(async (expected) => {
      const namespace = expected.metadata.namespace;
      const existing = reader.getStored(r, namespace, expected.metadata.name!);
      const object = { apiVersion: `${rbac}/v1`, kind, ...structuredClone(expected) } as KObject;
      if (!existing) return void (await registry.create(r, namespace, object, ctx));
      if (existing.metadata.annotations?.[autoupdate] === 'false') return;
      const update = reconciled(existing, object);
      if (update) await registry.update(r, namespace, expected.metadata.name!, update, ctx);
    }));
  }
}

/** The existing object with what the policy has and it lacks, or undefined when it lacks nothing. */
export function reconciled(existing: KObject, expected: KObject): KObject | undefined {
  const out = structuredClone(existing);
  out.metadata.labels = { ...(expected.metadata.labels ?? {}), ...(existing.metadata.labels ?? {}) };
  out.metadata.annotations = { ...(expected.metadata.annotations ?? {}), ...(existing.metadata.annotations ?? {}) };
  if ((expected.rules as unknown[] | undefined)?.length) out.rules = union(existing.rules, expected.rules);
  if ((expected.subjects as unknown[] | undefined)?.length) out.subjects = union(existing.subjects, expected.subjects);
  const selectors = (o: KObject) => (o.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors;
  if (selectors(expected)) out.aggregationRule = { ...(existing.aggregationRule as object), clusterRoleSelectors: union(selectors(existing), selectors(expected)) };
  return deepEqual(out, existing) ? undefined : out;
}

function union(have: unknown, want: unknown): unknown[] {
  const out = Array.isArray(have) ? [...(have as unknown[])] : [];
  for (const item of (want as unknown[] | undefined) ?? []) if (!out.some((known) => deepEqual(known, item))) out.push(item);
  return out;
}
