/** POST to a collection: defaults, mutating admission, system metadata, validation, then the store. */
import { defaultClaimClass } from './claim-admission.js';
import { randomUUID } from 'node:crypto';
import type { KObject } from '../../api/meta.js';
import { errors, field } from '../../machinery/errors.js';
import { StoreError } from '../storage/store.js';
import { type RegistryCore, storeErrorToStatus, timestamp } from './core.js';
import type { RequestContext } from './context.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { objectKey } from './keys.js';
import { applySchemaDefaults, handleUnknownFields, validateObject } from './validate.js';
import { managedFieldsAfter } from './managed.js';
import { checkNamespaceWritable } from './namespace-check.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** kube-apiserver's SimpleNameGenerator: the prefix is cut to 58 characters so prefix + suffix fit 63. */
export function generatedName(prefix: string): string {
  return prefix.slice(0, 58) + generateNameSuffix();
}

export function generateNameSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += nameAlphabet[Math.floor(Math.random() * nameAlphabet.length)];
  return s;
}

export function checkBodyMatches(r: ServedResource, body: KObject, namespace: string | undefined, name?: string): void {
  const expected = apiVersionOf(r.definition);
  // Another version of the same group is accepted (and read as the URL's version); another group is not.
  const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
  if (body.apiVersion !== undefined && body.apiVersion !== expected && (!r.definition.group || groupOf(body.apiVersion) !== r.definition.group)) {
    throw errors.badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${expected})`);
  }
  if (body.kind !== undefined && body.kind !== r.definition.kind) {
    throw errors.badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${r.definition.kind})`);
  }
  if (typeof body.metadata !== 'object' || body.metadata === null) body.metadata = {};
  if (r.definition.namespaced && namespace && body.metadata.namespace && body.metadata.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (name !== undefined && body.metadata.name && body.metadata.name !== name) {
    throw errors.badRequest('the name of the object (' + body.metadata.name + ') does not match the name on the URL (' + name + ')');
  }
}

export async function createObject(core: RegistryCore, r: ServedResource, namespace: string | undefined, body: KObject, ctx: RequestContext, options: { managedFieldsSet?: boolean } = {}): Promise<KObject> {
  checkBodyMatches(r, body, namespace);
  const d = r.definition;
  const now = core.now();
  let obj: KObject = { ...body, apiVersion: apiVersionOf(d), kind: d.kind, metadata: { ...body.metadata } };
  const m = obj.metadata;
  if (m.resourceVersion) throw errors.badRequest('resourceVersion should not be set on objects to be created');
  if (d.namespaced) m.namespace = namespace ?? m.namespace ?? 'default';
  else delete m.namespace;
  if (d.namespaced) await checkNamespaceWritable(core, m.namespace!, r, m.name || m.generateName);
  handleUnknownFields(r, obj, ctx);
  r.strategy.default?.(obj);
  applySchemaDefaults(r, obj);
  // kube-apiserver records the creator's fields here: what the request set plus scheme defaults,
  // not what admission adds or what the strategy prepares (status, namespace finalizers).
  // Computed now from what the request set (instead of from a copy kept until after admission).
  const creatorFields = options.managedFieldsSet ? undefined : managedFieldsAfter(r, undefined, creatorView(r, obj), ctx, now);
  r.strategy.admissionDefaults?.(obj);
  defaultClaimClass(core, r, obj);
  // As in kube-apiserver, webhooks see the object before the store fills uid, timestamps and a
  // generated name, and before the strategy resets status.
  obj = (await core.admission.mutate({ operation: 'CREATE', resource: r, namespace: m.namespace, name: m.name || undefined, object: obj, ctx })) ?? obj;
  const generated = fillSystemFields(r, obj, m.namespace, now);
  r.strategy.prepareForCreate?.(obj, ctx.user);
  validateObject(r, obj, undefined);
  await core.admission.validate({ operation: 'CREATE', resource: r, namespace: obj.metadata.namespace, name: obj.metadata.name, object: obj, ctx });
  if (creatorFields) obj.metadata.managedFields = creatorFields;
  if (ctx.dryRun) return obj;
  return storeWithGeneratedName(core, r, obj, generated);
}

/** The object as the creator wrote it, for managedFields; status a status subresource resets is not its. */
function creatorView(r: ServedResource, obj: KObject): KObject {
  if (!r.definition.subresources?.status || !('status' in obj)) return obj;
  const { status: _status, ...view } = obj;
  return view;
}

/** What kube's store and BeforeCreate do after mutating admission. Returns whether the name was generated. */
function fillSystemFields(r: ServedResource, obj: KObject, namespace: string | undefined, now: Date): boolean {
  const d = r.definition;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  const m = obj.metadata;
  if (d.namespaced && m.namespace && m.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (d.namespaced) m.namespace = namespace;
  else delete m.namespace;
  if (!m.name && !m.generateName) {
    throw errors.invalid(d.kind, '', d.group, [field.required('metadata.name', 'name or generateName is required')]);
  }
  m.uid = randomUUID();
  m.creationTimestamp = timestamp(now);
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  if (r.tracksGeneration) m.generation = 1;
  else delete m.generation;
  if (d.subresources?.status) delete obj.status;
  if (m.name) return false;
  m.name = generatedName(m.generateName!);
  return true;
}

async function storeWithGeneratedName(core: RegistryCore, r: ServedResource, obj: KObject, generated: boolean): Promise<KObject> {
  const requested = obj.apiVersion!;
  const stored = await r.convert(obj, r.storageApiVersion);
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await core.store.create(objectKey(r, stored.metadata.namespace, stored.metadata.name!), stored);
      return r.convert(result.object, requested);
    } catch (e) {
      const clash = e instanceof StoreError && e.code === 'AlreadyExists';
      if (!clash || !generated || attempt >= 8) throw storeErrorToStatus(e, r, stored.metadata.name!);
      stored.metadata = { ...stored.metadata, name: generatedName(obj.metadata.generateName!) };
    }
  }
}
