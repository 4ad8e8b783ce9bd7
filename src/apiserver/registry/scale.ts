/** The `/scale` subresource: an autoscaling/v1 Scale view of replicas and selector, writable through PUT/PATCH. */
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import { labelSelectorToString } from '../../machinery/labels.js';
import { StoreError } from '../storage/store.js';
import { type RegistryCore, storeErrorToStatus } from './core.js';
import type { RequestContext } from './context.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { loadCurrent, writeUpdate } from './update.js';
import { objectKey } from './keys.js';
import type { PatchRequest } from './patch.js';
import { applyJsonPatch } from '../../machinery/patch/json-patch.js';
import { applyMergePatch } from '../../machinery/patch/merge-patch.js';
import type { SubresourceStorage } from './subresource.js';

function pathParts(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function readPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of pathParts(path)) cur = (cur as Record<string, unknown> | undefined)?.[p];
  return cur;
}

export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = pathParts(path);
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

export function toScale(r: ServedResource, obj: KObject): KObject {
  const mapping = r.definition.subresources!.scale!;
  const selector = mapping.labelSelectorPath ? readPath(obj, mapping.labelSelectorPath) : undefined;
  const m = obj.metadata;
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: (readPath(obj, mapping.specReplicasPath) as number | undefined) ?? 0 },
    status: {
      replicas: (readPath(obj, mapping.statusReplicasPath) as number | undefined) ?? 0,
      selector: typeof selector === 'string' ? selector : selector ? labelSelectorToString(selector as never) : undefined,
    },
  };
}

export async function getScale(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string): Promise<KObject> {
  const current = loadScaled(core, r, namespace, name);
  return toScale(r, await r.convert(current.object, apiVersionOf(r.definition)));
}

/** PUT (`scale` given) or PATCH (`patch` given) of the Scale; only spec.replicas reaches the object. */
export async function writeScale(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string, change: { scale?: KObject; patch?: PatchRequest }, ctx: RequestContext): Promise<KObject> {
  for (let attempt = 0; ; attempt++) {
    const current = loadScaled(core, r, namespace, name);
    const obj = await r.convert(current.object, apiVersionOf(r.definition));
    const before = toScale(r, obj);
    const scale = change.scale ?? patchScale(before, change.patch!);
    const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw errors.invalid('Scale', name, 'autoscaling', [{ type: 'FieldValueInvalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' }]);
    }
    const rv = scale.metadata?.resourceVersion;
    if (change.scale && rv && rv !== obj.metadata.resourceVersion) throw errors.conflict(r.definition.plural, name, r.definition.group);
    const next = structuredClone(obj);
    writePath(next as Record<string, unknown>, r.definition.subresources!.scale!.specReplicasPath, replicas);
    try {
      return toScale(r, await writeUpdate(core, r, current, next, ctx, { subresource: 'scale' }));
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'Conflict') || (change.scale && rv) || attempt > 20) throw storeErrorToStatus(e, r, name);
    }
  }
}

function patchScale(scale: KObject, patch: PatchRequest): KObject {
  if (patch.type === 'json') return applyJsonPatch(scale, patch.patch) as KObject;
  return applyMergePatch(scale, patch.patch) as KObject;
}

/** The `/scale` storage. Its answers carry no Warning headers (kube-apiserver would pass on webhook warnings). */
export const scaleSubresource: SubresourceStorage = {
  async get({ core, resource, namespace, name }) {
    return { object: await getScale(core, resource, namespace, name) };
  },
  async update({ core, resource, namespace, name, ctx }, scale) {
    return { object: await writeScale(core, resource, namespace, name, { scale }, ctx) };
  },
  async patch({ core, resource, namespace, name, ctx }, patch) {
    return { object: await writeScale(core, resource, namespace, name, { patch }, ctx) };
  },
};

/** Built-in ScaleREST storages answer NotFound for `deployments/scale`, a custom resource's for the resource itself. */
function loadScaled(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string) {
  if (r.crdName || core.store.get(objectKey(r, namespace, name))) return loadCurrent(core, r, namespace, name);
  throw errors.notFound(`${r.definition.plural}/scale`, name, r.definition.group);
}
