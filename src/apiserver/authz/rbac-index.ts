/**
 * In-memory indexes over the stored Roles, ClusterRoles and their bindings, kept current from the
 * store's watch like kube's RBAC informers (docs/design/authorization.md §4). Bindings are indexed
 * by subject, so a request looks only at the bindings naming its user or one of its groups, never
 * at every binding.
 */
import type { KObject } from '../../api/meta.js';
import type { RegistryReader, StoredEvent, WatchHandle } from '../registry/reader.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { PolicyRule } from './rule-match.js';
import { subjectKey, type Subject } from './subjects.js';

export interface Binding {
  name: string;
  /** '' for ClusterRoleBindings. */
  namespace: string;
  roleRef: { kind: string; name: string };
  subjects: Subject[];
}

/** Bindings of one scope (the cluster, or one namespace) by name and by subject key. */
class BindingSet {
  readonly byName = new Map<string, Binding>();
  private readonly bySubject = new Map<string, Set<string>>();

  put(binding: Binding): void {
    this.remove(binding.name);
    this.byName.set(binding.name, binding);
    for (const key of this.keysOf(binding)) {
      let names = this.bySubject.get(key);
      if (!names) this.bySubject.set(key, (names = new Set()));
      names.add(binding.name);
    }
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (!old) return;
    this.byName.delete(name);
    for (const key of this.keysOf(old)) this.bySubject.get(key)?.delete(name);
  }

  /** Bindings naming any of `keys`, in name order (kube's order is its cache's; ours is stable). */
  matching(keys: string[]): Binding[] {
    const names = new Set<string>();
    for (const key of keys) for (const name of this.bySubject.get(key) ?? []) names.add(name);
    return [...names].sort().map((n) => this.byName.get(n)!);
  }

  private keysOf(binding: Binding): string[] {
    return binding.subjects.map((s) => subjectKey(s, binding.namespace)).filter((k): k is string => k !== undefined);
  }
}

const rbacGroup = 'rbac.authorization.k8s.io';

export class RbacIndex {
  readonly clusterRoles = new Map<string, PolicyRule[]>();
  /** `<namespace>/<name>` -> rules. */
  readonly roles = new Map<string, PolicyRule[]>();
  readonly clusterRoleBindings = new BindingSet();
  private readonly roleBindings = new Map<string, BindingSet>();
  private readonly handles: WatchHandle[] = [];

  constructor(private readonly reader: RegistryReader) {}

  /** Lists each resource synchronously (so the first request is decided on stored policy), then follows it. */
  start(): void {
    this.follow('clusterroles', (o, gone) => (gone ? this.clusterRoles.delete(name(o)) : this.clusterRoles.set(name(o), rulesOf(o))));
    this.follow('roles', (o, gone) => (gone ? this.roles.delete(roleKey(o)) : this.roles.set(roleKey(o), rulesOf(o))));
    this.follow('clusterrolebindings', (o, gone) => (gone ? this.clusterRoleBindings.remove(name(o)) : this.clusterRoleBindings.put(bindingOf(o))));
    this.follow('rolebindings', (o, gone) => {
      const ns = o.metadata.namespace ?? '';
      if (gone) this.roleBindings.get(ns)?.remove(name(o));
      else this.roleBindingsIn(ns, true)!.put(bindingOf(o));
    });
  }

  stop(): void {
    for (const h of this.handles.splice(0)) h.stop();
  }

  roleBindingsIn(namespace: string, create = false): BindingSet | undefined {
    let set = this.roleBindings.get(namespace);
    if (!set && create) this.roleBindings.set(namespace, (set = new BindingSet()));
    return set;
  }

  private follow(plural: string, apply: (o: KObject, gone: boolean) => void): void {
    const r: ServedResource = this.reader.table.lookup(rbacGroup, 'v1', plural)!;
    const list = this.reader.listStored(r);
    for (const o of list.items) apply(o, false);
    this.handles.push(this.reader.watchStored(r, undefined, list.rv, (e: StoredEvent) => apply(e.object, e.type === 'DELETED')));
  }
}

const name = (o: KObject) => o.metadata.name ?? '';
const roleKey = (o: KObject) => `${o.metadata.namespace ?? ''}/${name(o)}`;
const rulesOf = (o: KObject) => (Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : []);

function bindingOf(o: KObject): Binding {
  const ref = (o.roleRef ?? {}) as { kind?: string; name?: string };
  return {
    name: name(o), namespace: o.metadata.namespace ?? '',
    roleRef: { kind: ref.kind ?? '', name: ref.name ?? '' },
    subjects: Array.isArray(o.subjects) ? (o.subjects as Subject[]) : [],
  };
}
