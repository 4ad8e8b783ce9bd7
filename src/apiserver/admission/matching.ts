/**
 * Which webhooks a request reaches, as kube-apiserver decides it: rules (operation, group, version,
 * resource/subresource, scope), then under matchPolicy Equivalent the same rules against other
 * served versions of the resource, then the namespace and object selectors.
 */
import type { KObject } from '../../api/meta.js';
import type { GroupVersionKind } from '../../api/admission.js';
import { errors } from '../../machinery/errors.js';
import type { Operation } from '../registry/context.js';
import { compareKubeVersions } from '../registry/resource-table.js';
import type { RegistryReader } from '../registry/reader.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { RuleWithOperations, Webhook } from './webhook-config.js';

/** A request as webhooks see it (for `/scale` the objects are Scales). */
export interface RequestView {
  operation: Operation;
  resource: ServedResource;
  subresource: string;
  /** Empty for cluster-scoped objects; a Namespace's own name for requests on an existing Namespace. */
  namespace: string;
  name: string;
  kind: GroupVersionKind;
  object?: KObject;
  oldObject?: KObject;
}

export interface Invocation {
  hook: Webhook;
  /** The resource version the webhook is called with (differs from the request's under Equivalent). */
  resource: ServedResource;
  kind: GroupVersionKind;
}

const listMatches = (list: string[] | undefined, value: string) => !!list && (list.includes('*') || list.includes(value));

export function isNamespaceResource(r: ServedResource): boolean {
  return r.definition.group === '' && r.definition.plural === 'namespaces';
}

/** `resource[/subresource]` entries, `*` for any; compared in place (every write checks every webhook). */
function resourceMatches(resources: string[] | undefined, plural: string, sub: string): boolean {
  for (const entry of resources ?? []) {
    const slash = entry.indexOf('/');
    if (slash < 0) {
      if (sub === '' && (entry === '*' || entry === plural)) return true;
      continue;
    }
    const anyResource = slash === 1 && entry[0] === '*';
    const anySub = entry.length === slash + 2 && entry[slash + 1] === '*';
    if ((anyResource || (slash === plural.length && entry.startsWith(plural)))
      && (anySub || (entry.length - slash - 1 === sub.length && entry.endsWith(sub)))) return true;
  }
  return false;
}

function scopeMatches(rule: RuleWithOperations, view: RequestView): boolean {
  const scope = rule.scope ?? '*';
  if (scope === '*') return true;
  const clusterScoped = isNamespaceResource(view.resource) || view.namespace === '';
  return scope === 'Cluster' ? clusterScoped : !clusterScoped;
}

/** One rule against the request's group/resource; `version` undefined skips the version check. */
function ruleMatches(rule: RuleWithOperations, view: RequestView, r: ServedResource, version: string | undefined): boolean {
  const d = r.definition;
  return listMatches(rule.operations, view.operation) && listMatches(rule.apiGroups, d.group)
    && (version === undefined || listMatches(rule.apiVersions, version))
    && resourceMatches(rule.resources, d.plural, view.subresource) && scopeMatches(rule, view);
}

/** Kind sent for an invocation on another version: the parent's kind, unless a subresource has its own. */
function kindFor(r: ServedResource, view: RequestView): GroupVersionKind {
  if (view.subresource && view.subresource !== 'status') return view.kind;
  return { group: r.definition.group, version: r.definition.version, kind: r.definition.kind };
}

export class Matcher {
  private equivalentsCache = new WeakMap<ServedResource, { tableVersion: number; list: ServedResource[] }>();

  constructor(private readonly reader: RegistryReader) {}

  /** The invocation of `hook` for this request, or undefined when it does not apply. Throws 404/500 like kube. */
  match(hook: Webhook, view: RequestView): Invocation | undefined {
    const invocation = this.matchRules(hook, view);
    if (!invocation) return undefined;
    if (!this.namespaceMatches(hook, view)) return undefined;
    if (!objectMatches(hook, view)) return undefined;
    return invocation;
  }

  private matchRules(hook: Webhook, view: RequestView): Invocation | undefined {
    const r = view.resource;
    let otherVersion = false;
    for (const rule of hook.rules) {
      if (!ruleMatches(rule, view, r, undefined)) continue;
      if (listMatches(rule.apiVersions, r.definition.version)) return { hook, resource: r, kind: view.kind };
      otherVersion = true;
    }
    if (!hook.equivalent || !otherVersion) return undefined;
    for (const rule of hook.rules) {
      for (const other of this.equivalents(r)) {
        if (ruleMatches(rule, view, other, other.definition.version)) return { hook, resource: other, kind: kindFor(other, view) };
      }
    }
    return undefined;
  }

  /** Other served versions of the same group and storage, highest priority first. */
  private equivalents(r: ServedResource): ServedResource[] {
    const cached = this.equivalentsCache.get(r);
    const table = this.reader.table;
    if (cached && cached.tableVersion === table.version) return cached.list;
    const list = table.versionsOf(r.storagePrefix)
      .filter((o) => o !== r && o.definition.group === r.definition.group && o.definition.plural === r.definition.plural)
      .sort((a, b) => compareKubeVersions(a.definition.version, b.definition.version));
    this.equivalentsCache.set(r, { tableVersion: table.version, list });
    return list;
  }

  private namespaceMatches(hook: Webhook, view: RequestView): boolean {
    const isNamespace = isNamespaceResource(view.resource);
    if (view.namespace === '' && !isNamespace) return true;
    const selector = hook.namespaceSelector;
    if (selector instanceof Error) throw errors.internal(selector.message);
    if (selector.empty) return true;
    return selector.matches(this.namespaceLabels(view, isNamespace));
  }

  private namespaceLabels(view: RequestView, isNamespace: boolean): Record<string, string> | undefined {
    // A Namespace being created or updated is matched by its new labels (the store has the old ones).
    if (isNamespace && !view.subresource && (view.operation === 'CREATE' || view.operation === 'UPDATE')) return view.object?.metadata?.labels;
    const name = view.namespace || view.name;
    const namespaces = this.reader.table.lookup('', 'v1', 'namespaces');
    const ns = namespaces && this.reader.getStored(namespaces, undefined, name);
    if (!ns) throw errors.notFound('namespaces', name);
    return ns.metadata.labels;
  }
}

function objectMatches(hook: Webhook, view: RequestView): boolean {
  const selector = hook.objectSelector;
  if (selector instanceof Error) throw errors.internal(selector.message);
  if (selector.empty) return true;
  const labelsOf = (o: KObject | undefined) => (o && typeof o.metadata === 'object' ? o.metadata.labels : undefined);
  return (!!view.object && selector.matches(labelsOf(view.object))) || (!!view.oldObject && selector.matches(labelsOf(view.oldObject)));
}
