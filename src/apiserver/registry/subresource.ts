/**
 * Subresources as storages of their own, the way kube-apiserver registers `pods/binding` or
 * `deployments/scale` as separate REST storages: a served resource carries a table from subresource
 * name to a storage with one handler per verb it serves. The HTTP layer dispatches
 * `<resource>/<subresource>` through that table and names no resource. `status` and `scale` come
 * from the definition's flags (every resource, CRDs included); the others are declared with their
 * resource in registry/builtin.
 */
import type { KObject } from '../../api/meta.js';
import type { WatchStream } from '../../api/request.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { errors } from '../../machinery/errors.js';
import type { RequestContext } from './context.js';
import type { RegistryCore } from './core.js';
import type { PatchRequest } from './patch.js';
import type { ServedResource } from './served-resource.js';
import { statusSubresource } from './status-subresource.js';
import { scaleSubresource } from './scale.js';

/** The object a subresource request addresses, who asks, and the registry state to act on. */
export interface SubresourceTarget {
  core: RegistryCore;
  resource: ServedResource;
  namespace: string | undefined;
  name: string;
  ctx: RequestContext;
}

/** What a subresource answers: an object (JSON) or plain text, with code 200 unless it says otherwise. */
export interface SubresourceAnswer {
  code?: number;
  object?: KObject;
  text?: string;
  contentType?: string;
  /** Warnings for the response's `Warning` headers. */
  warnings?: string[];
  /** A body that keeps coming (pods/log with follow), in `contentType`. */
  stream?: WatchStream;
}

/** One subresource's storage: a handler per verb it serves (kube's rest.Getter, Creater, Updater, Patcher). */
export interface SubresourceStorage {
  /** `options`: the request's query parameters (pods/log reads `container`, `previous`). */
  get?(target: SubresourceTarget, options: Readonly<Record<string, string>>): Promise<SubresourceAnswer>;
  create?(target: SubresourceTarget, body: KObject): Promise<SubresourceAnswer>;
  update?(target: SubresourceTarget, body: KObject): Promise<SubresourceAnswer>;
  patch?(target: SubresourceTarget, patch: PatchRequest): Promise<SubresourceAnswer>;
}

export type SubresourceVerb = keyof SubresourceStorage;

/** A request on a subresource, with the decoded input its verb takes. */
export type SubresourceCall =
  | { verb: 'get'; options?: Readonly<Record<string, string>> }
  | { verb: 'create' | 'update'; body: KObject }
  | { verb: 'patch'; patch: PatchRequest };

export function isSubresourceVerb(verb: string): verb is SubresourceVerb {
  return verb === 'get' || verb === 'create' || verb === 'update' || verb === 'patch';
}

export function servesSubresource(r: ServedResource, subresource: string, verb: SubresourceVerb): boolean {
  return r.subresources?.get(subresource)?.[verb] !== undefined;
}

/** Runs the call on the storage `target.resource` declared for `subresource`; 404 when it serves no such verb. */
export function callSubresource(target: SubresourceTarget, subresource: string, call: SubresourceCall): Promise<SubresourceAnswer> {
  const storage = target.resource.subresources?.get(subresource);
  const d = target.resource.definition;
  const notServed = () => errors.notFound(`${d.plural}/${subresource}`, target.name, d.group);
  switch (call.verb) {
    case 'get':
      if (!storage?.get) throw notServed();
      return storage.get(target, call.options ?? {});
    case 'create':
      if (!storage?.create) throw notServed();
      return storage.create(target, call.body);
    case 'update':
      if (!storage?.update) throw notServed();
      return storage.update(target, call.body);
    case 'patch':
      if (!storage?.patch) throw notServed();
      return storage.patch(target, call.patch);
  }
}

/** The subresource table of a resource: generic `status` and `scale` as its definition asks, then its own. */
export function subresourceTable(d: ResourceDefinition, own: Record<string, SubresourceStorage> = {}): ReadonlyMap<string, SubresourceStorage> {
  const table = new Map<string, SubresourceStorage>();
  if (d.subresources?.status) table.set('status', statusSubresource);
  if (d.subresources?.scale) table.set('scale', scaleSubresource);
  for (const [name, storage] of Object.entries(own)) table.set(name, storage);
  return table;
}

/**
 * Mutating admission of a CREATE on a subresource (kube admits the Binding or Eviction itself, with
 * no old object), then the check every such REST storage makes: the body names the object of the URL.
 */
export async function admitSubresourceCreate(target: SubresourceTarget, subresource: string, kind: string, body: KObject): Promise<KObject> {
  const { core, resource, namespace, name, ctx } = target;
  const admitted = (await core.admission.mutate({ operation: 'CREATE', resource, subresource, namespace, name, object: body, ctx })) ?? body;
  if (admitted.metadata?.name !== name) throw errors.badRequest(`name in URL does not match name in ${kind} object`);
  return admitted;
}

/** The answer of a subresource CREATE that returns no object (binding, eviction). */
export function createdStatus(): SubresourceAnswer {
  return { code: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as KObject };
}
