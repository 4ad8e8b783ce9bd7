/**
 * core/v1 namespaces: the enforced `kubernetes.io/metadata.name` label, the `kubernetes` finalizer
 * and Active phase on create, and spec.finalizers that only the `finalize` subresource may change.
 */
import type { KObject } from '../../../api/meta.js';
import { errors, field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { qualifiedName } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { namespaceFinalizeSubresource } from './namespace-finalize.js';
import { child, ensure, setDefaultString, str, strings } from '../../../machinery/json.js';

export const namespaceNameLabel = 'kubernetes.io/metadata.name';
const standardFinalizers = ['kubernetes', 'orphan', 'foregroundDeletion'];

function enforceNameLabel(ns: KObject): void {
  const name = ns.metadata.name;
  if (name) ns.metadata.labels = { ...ns.metadata.labels, [namespaceNameLabel]: name };
}

export function defaultNamespace(ns: KObject): void {
  enforceNameLabel(ns);
  setDefaultString(ensure(ns, 'status'), 'phase', 'Active');
}

export function prepareNamespaceForCreate(ns: KObject): void {
  enforceNameLabel(ns);
  const spec = ensure(ns, 'spec');
  const finalizers = strings(spec, 'finalizers');
  if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes'];
  ns.status = { phase: 'Active' };
}

/** The main endpoint never changes spec.finalizers (PUT namespaces/<n>/finalize does). */
export function prepareNamespaceForUpdate(ns: KObject, old: KObject): void {
  enforceNameLabel(ns);
  const oldFinalizers = child(old, 'spec')?.finalizers;
  const spec = ensure(ns, 'spec');
  if (oldFinalizers === undefined) delete spec.finalizers;
  else spec.finalizers = oldFinalizers;
}

export function validateNamespace(ns: KObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const name of strings(child(ns, 'spec'), 'finalizers')) {
    errs.push(...qualifiedName('spec.finalizers', name));
    if (!name.includes('/') && !standardFinalizers.includes(name)) {
      errs.push(field.invalid('spec.finalizers', name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

/** The namespaces kube's NamespaceLifecycle admission never lets go. */
const immortalNamespaces = new Set(['default', 'kube-system', 'kube-public']);

function forbidImmortalDelete(ns: KObject): void {
  const name = ns.metadata.name!;
  if (immortalNamespaces.has(name)) throw errors.forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' });
}

export function namespacesResource(): BuiltinResource {
  const namespaces = builtin(resource({
    group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false,
    shortNames: ['ns'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    status: true, extra: ['finalize'],
  }), {
    default: defaultNamespace,
    returnDeletedObject: true,
    checkDelete: forbidImmortalDelete,
    heldWhileTerminating: (ns) => ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length > 0,
    markTerminating: (ns) => { ns.status = { ...(ns.status as object), phase: 'Terminating' }; },
    prepareForCreate: prepareNamespaceForCreate,
    prepareForUpdate: prepareNamespaceForUpdate,
    validate: validateNamespace,
    fieldAttributes: (ns) => ({ 'status.phase': str(child(ns, 'status'), 'phase') }),
  });
  return { ...namespaces, subresources: { finalize: namespaceFinalizeSubresource } };
}
