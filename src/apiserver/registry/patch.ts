/**
 * PATCH: JSON patch, merge patch, strategic merge patch (built-ins only) and server-side apply,
 * applied to the latest stored object and retried on a lost race unless the patch itself carries
 * a resourceVersion precondition.
 */
import type { KObject } from '../../api/meta.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { applyJsonPatch } from '../../machinery/patch/json-patch.js';
import { applyMergePatch } from '../../machinery/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../machinery/patch/strategic-merge-patch.js';
import { serverSideApply } from '../../machinery/apply/index.js';
import { StoreError } from '../storage/store.js';
import { typeMismatch } from './typed-decode.js';
import { type RegistryCore, storeErrorToStatus, timestamp } from './core.js';
import type { RequestContext } from './context.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { objectKey } from './keys.js';
import { writeUpdate, type SubresourceUpdateStrategy } from './update.js';
import { createObject } from './create.js';
import { managerName, typeHintsFor } from './managed.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchContentTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export interface PatchRequest {
  type: PatchType;
  /** Parsed patch document (JSON patch array, merge/SMP object, or the applied configuration). */
  patch: unknown;
  force?: boolean;
  subresource?: string;
}

export async function patchObject(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string, req: PatchRequest, ctx: RequestContext, strategy?: SubresourceUpdateStrategy): Promise<KObject> {
  if (req.type === 'strategic' && !r.patchSchema) throw errors.unsupportedMediaType('application/strategic-merge-patch+json');
  if (req.type === 'apply' && !ctx.fieldManager) throw errors.badRequest('PATCH requests with application/apply-patch+yaml must have a fieldManager parameter');
  for (let attempt = 0; ; attempt++) {
    const current = core.store.get(objectKey(r, namespace, name));
    if (!current) {
      if (req.type === 'apply') return applyCreate(core, r, namespace, name, req, ctx);
      throw errors.notFound(r.definition.plural, name, r.definition.group);
    }
    const live = await r.convert(current.object, apiVersionOf(r.definition));
    const next = applyPatchDocument(r, live, req, ctx, core.now());
    try {
      return await writeUpdate(core, r, current, next, ctx, { subresource: req.subresource, managedFieldsSet: req.type === 'apply', strategy });
    } catch (e) {
      const lostRace = e instanceof StoreError && e.code === 'Conflict';
      if (!lostRace || attempt > 20) throw storeErrorToStatus(e, r, name);
    }
  }
}

function applyPatchDocument(r: ServedResource, live: KObject, req: PatchRequest, ctx: RequestContext, now: Date): KObject {
  let result: unknown;
  switch (req.type) {
    case 'json': result = applyJsonPatch(live, req.patch); break;
    case 'merge': result = applyMergePatch(live, req.patch); break;
    case 'strategic': result = applyStrategicMergePatch(live, req.patch, r.patchSchema!); break;
    case 'apply': result = serverSideApply(live, checkApplied(r, req.patch, live.metadata.namespace, live.metadata.name!), {
      manager: managerName(ctx), force: !!req.force, apiVersion: apiVersionOf(r.definition), hints: typeHintsFor(r), now: timestamp(now), subresource: req.subresource,
    }); break;
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw errors.badRequest('the patch did not produce an object');
  const obj = result as KObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  // kube decodes the patched object into its Go type and answers a mismatch as an invalid patch.
  const mismatch = r.schema && !r.schemaIsAuthoritative && req.type !== 'apply' ? typeMismatch(r.schema, obj) : undefined;
  if (mismatch) {
    const { apiVersion, kind, metadata, ...rest } = obj;
    const value = JSON.stringify(JSON.stringify({ apiVersion, kind, metadata, ...rest }));
    throw new StatusError(422, 'Invalid', ` "" is invalid: patch: Invalid value: ${value}: ${mismatch}`, { causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${value}: ${mismatch}`, field: 'patch' }] });
  }
  return obj;
}

function checkApplied(r: ServedResource, patch: unknown, namespace: string | undefined, name: string): KObject {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw errors.badRequest('the applied configuration must be an object');
  const obj = patch as KObject;
  if (!obj.apiVersion || !obj.kind) throw errors.badRequest('apiVersion and kind must be set in the applied configuration');
  if (obj.kind !== r.definition.kind) throw errors.badRequest(`the kind in the data (${obj.kind}) does not match the expected kind (${r.definition.kind})`);
  obj.metadata = { ...(obj.metadata ?? {}) };
  if (obj.metadata.name && obj.metadata.name !== name) throw errors.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  obj.metadata.name = name;
  if (namespace) obj.metadata.namespace = namespace;
  return obj;
}

async function applyCreate(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string, req: PatchRequest, ctx: RequestContext): Promise<KObject> {
  const applied = checkApplied(r, req.patch, namespace, name);
  const obj = serverSideApply(undefined, applied, {
    manager: managerName(ctx), force: !!req.force, apiVersion: apiVersionOf(r.definition), hints: typeHintsFor(r), now: timestamp(core.now()),
  });
  try {
    return await createObject(core, r, namespace, obj, ctx, { managedFieldsSet: true });
  } catch (e) {
    if (e instanceof StatusError && e.reason === 'AlreadyExists') return patchObject(core, r, namespace, name, req, ctx);
    throw e;
  }
}
