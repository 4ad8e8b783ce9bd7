/** rbac.authorization.k8s.io/v1 roles, clusterroles and their bindings: defaults and ValidateRBAC*. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { dnsSubdomain, oneOf } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { child, ensure, items, setDefaultString, str, strings } from '../../../machinery/json.js';

const rbacGroup = 'rbac.authorization.k8s.io';

export function validatePolicyRules(obj: KObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  items(obj, 'rules').forEach((rule, i) => {
    const p = `rules[${i}]`;
    if (strings(rule, 'verbs').length === 0) errs.push(field.required(`${p}.verbs`, 'verbs must contain at least one value'));
    const urls = strings(rule, 'nonResourceURLs');
    if (urls.length > 0) {
      if (namespaced) errs.push(field.invalid(`${p}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
      if (['apiGroups', 'resources', 'resourceNames'].some((k) => strings(rule, k).length > 0)) {
        errs.push(field.invalid(`${p}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return;
    }
    if (strings(rule, 'apiGroups').length === 0) errs.push(field.required(`${p}.apiGroups`, 'resource rules must supply at least one api group'));
    if (strings(rule, 'resources').length === 0) errs.push(field.required(`${p}.resources`, 'resource rules must supply at least one resource'));
  });
  return errs;
}

export function defaultBinding(binding: KObject): void {
  setDefaultString(ensure(binding, 'roleRef'), 'apiGroup', rbacGroup);
  for (const subject of items(binding, 'subjects')) {
    if (subject.kind === 'User' || subject.kind === 'Group') setDefaultString(subject, 'apiGroup', rbacGroup);
  }
}

export function validateBinding(binding: KObject, cluster: boolean): FieldError[] {
  const roleRef = child(binding, 'roleRef');
  const errs = [
    ...oneOf('roleRef.apiGroup', roleRef?.apiGroup, [rbacGroup]),
    ...oneOf('roleRef.kind', roleRef?.kind, cluster ? ['ClusterRole'] : ['Role', 'ClusterRole']),
  ];
  if (!str(roleRef, 'name')) errs.push(field.required('roleRef.name'));
  items(binding, 'subjects').forEach((s, i) => {
    const p = `subjects[${i}]`;
    const name = str(s, 'name');
    if (!name) errs.push(field.required(`${p}.name`));
    switch (s.kind) {
      case 'ServiceAccount':
        if (name) errs.push(...dnsSubdomain(`${p}.name`, name));
        if (str(s, 'apiGroup')) errs.push(field.notSupported(`${p}.apiGroup`, s.apiGroup, ['']));
        if (cluster && !str(s, 'namespace')) errs.push(field.required(`${p}.namespace`));
        break;
      case 'User': case 'Group':
        errs.push(...oneOf(`${p}.apiGroup`, s.apiGroup, [rbacGroup]));
        break;
      default:
        errs.push(field.notSupported(`${p}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
  return errs;
}

const roleRefImmutable = (binding: KObject, old: KObject): FieldError[] =>
  semanticEqual(binding.roleRef, old.roleRef) ? [] : [field.invalid('roleRef', binding.roleRef ?? null, 'cannot change roleRef')];

const rbacResource = (kind: string, plural: string, namespaced: boolean) =>
  resource({ group: rbacGroup, version: 'v1', kind, plural, namespaced });

export function rbacResources(): BuiltinResource[] {
  return [
    builtin(rbacResource('Role', 'roles', true), { validate: (r) => validatePolicyRules(r, true) }),
    builtin(rbacResource('ClusterRole', 'clusterroles', false), { validate: (r) => validatePolicyRules(r, false) }),
    builtin(rbacResource('RoleBinding', 'rolebindings', true), {
      default: defaultBinding, validate: (b) => validateBinding(b, false), validateUpdate: roleRefImmutable,
    }),
    builtin(rbacResource('ClusterRoleBinding', 'clusterrolebindings', false), {
      default: defaultBinding, validate: (b) => validateBinding(b, true), validateUpdate: roleRefImmutable,
    }),
  ];
}
