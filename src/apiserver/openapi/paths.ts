/**
 * The `paths` of a group-version document: collection and item paths of every resource (plus
 * all-namespaces lists, `/status` and `/scale`), each operation tagged with
 * `x-kubernetes-group-version-kind` so kubectl can find it by kind.
 */
import type { ResourceDefinition } from '../../api/resource.js';
import { deleteParams, listParams, params, patchParams, writeParams, type Parameter } from './parameters.js';
import { specialNames } from './schema-names.js';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** What operations of one path refer to: the kind, its schemas and the accepted patch types. */
export interface OperationContext {
  gvk: Gvk;
  schema: string;
  listSchema: string;
  idBase: string;
  tag: string;
  patchTypes: string[];
}

type Verb = 'read' | 'list' | 'create' | 'replace' | 'patch' | 'delete' | 'deletecollection';

const methodOf: Record<Verb, string> = {
  read: 'get', list: 'get', create: 'post', replace: 'put', patch: 'patch', delete: 'delete', deletecollection: 'delete',
};
const actionOf: Record<Verb, string> = {
  read: 'get', list: 'list', create: 'post', replace: 'put', patch: 'patch', delete: 'delete', deletecollection: 'deletecollection',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function content(schemaName: string, types = ['application/json', 'application/yaml']): Record<string, unknown> {
  return Object.fromEntries(types.map((t) => [t, { schema: ref(schemaName) }]));
}

function responses(codes: string[], schemaName: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const code of codes) out[code] = { description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK', content: content(schemaName) };
  out['401'] = { description: 'Unauthorized' };
  return out;
}

function parametersOf(verb: Verb): Parameter[] {
  switch (verb) {
    case 'read':
      return [];
    case 'list':
      return listParams;
    case 'create':
    case 'replace':
      return writeParams;
    case 'patch':
      return patchParams;
    case 'delete':
      return deleteParams;
    case 'deletecollection':
      return [...deleteParams, ...listParams.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks')];
  }
}

function requestBody(verb: Verb, ctx: OperationContext): Record<string, unknown> | undefined {
  if (verb === 'create' || verb === 'replace') return { content: content(ctx.schema, ['*/*']), required: true };
  if (verb === 'patch') return { content: content(specialNames.Patch, ctx.patchTypes), required: true };
  if (verb === 'delete' || verb === 'deletecollection') return { content: content(specialNames.DeleteOptions, ['*/*']) };
  return undefined;
}

function operation(verb: Verb, ctx: OperationContext, idSuffix = ''): Record<string, unknown> {
  const result = verb === 'list' ? ctx.listSchema : verb === 'deletecollection' ? specialNames.Status : ctx.schema;
  const codes = verb === 'create' ? ['200', '201', '202'] : verb === 'replace' || verb === 'patch' ? ['200', '201'] : verb === 'delete' ? ['200', '202'] : ['200'];
  const op: Record<string, unknown> = {
    tags: [ctx.tag],
    description: `${verb} ${ctx.gvk.kind}`,
    operationId: `${verb}${ctx.idBase}${idSuffix}`,
    parameters: parametersOf(verb),
    responses: responses(codes, result),
    'x-kubernetes-action': actionOf[verb],
    'x-kubernetes-group-version-kind': { group: ctx.gvk.group, version: ctx.gvk.version, kind: ctx.gvk.kind },
  };
  const body = requestBody(verb, ctx);
  if (body) op.requestBody = body;
  return op;
}

/** A path item with the given operations, or undefined when none is served. */
function pathItem(verbs: Verb[], ctx: OperationContext, common: Parameter[], idSuffix = ''): Record<string, unknown> | undefined {
  if (verbs.length === 0) return undefined;
  const item: Record<string, unknown> = { parameters: [...common, params.pretty] };
  for (const verb of verbs) item[methodOf[verb]] = operation(verb, ctx, idSuffix);
  return item;
}

/** Every path of one resource, keyed like upstream (`/apis/apps/v1/namespaces/{namespace}/deployments`). */
export function resourcePaths(def: ResourceDefinition, ctx: OperationContext, scale?: OperationContext): Record<string, unknown> {
  const prefix = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const collection = `${prefix}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.plural}`;
  const item = `${collection}/{name}`;
  const has = (v: string) => def.verbs.includes(v);
  const pick = (pairs: [string, Verb][]): Verb[] => pairs.filter(([v]) => has(v)).map(([, verb]) => verb);
  const scope = def.namespaced ? [params.namespace] : [];
  const itemScope = [params.name(def.kind), ...scope];
  const out: Record<string, unknown | undefined> = {
    [collection]: pathItem(pick([['list', 'list'], ['create', 'create'], ['deletecollection', 'deletecollection']]), ctx, scope),
    [item]: pathItem(pick([['get', 'read'], ['update', 'replace'], ['patch', 'patch'], ['delete', 'delete']]), ctx, itemScope),
  };
  if (def.namespaced && has('list')) out[`${prefix}/${def.plural}`] = pathItem(['list'], ctx, [], 'ForAllNamespaces');
  if (def.subresources?.status) out[`${item}/status`] = pathItem(['read', 'replace', 'patch'], ctx, itemScope, 'Status');
  if (def.subresources?.scale && scale) out[`${item}/scale`] = pathItem(['read', 'replace', 'patch'], scale, itemScope, 'Scale');
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}
