/**
 * Test helpers for the per-kind admission logic: an AdmissionInput built directly, and a read-only
 * fake Client over a fixed set of objects (get and list; writes throw).
 */
import type { AdmissionOperation } from '../../api/admission.js';
import type { KObject, KList } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client, ListOptions } from '../../client/client.js';
import { errors, type FieldError, fieldErrorMessage } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';

export interface InputOptions {
  operation?: AdmissionOperation;
  object?: KObject;
  oldObject?: KObject;
  version?: string;
  kind?: string;
  objects?: KObject[];
  gates?: Record<string, boolean>;
}

export function admissionInput(o: InputOptions): AdmissionInput {
  const version = o.version ?? 'v1beta1';
  const meta = o.object?.metadata ?? o.oldObject?.metadata ?? {};
  return {
    request: {
      uid: 'test', operation: o.operation ?? 'CREATE', userInfo: { username: 'tester' },
      kind: { group: 'apps.kruise.io', version, kind: o.kind ?? o.object?.kind ?? 'Unknown' },
      resource: { group: 'apps.kruise.io', version, resource: 'unknown' },
      name: meta.name, namespace: meta.namespace,
    },
    object: o.object,
    oldObject: o.oldObject,
    version,
    client: fakeClient(o.objects ?? []),
    gate: (name) => o.gates?.[name] ?? false,
  };
}

const matches = (obj: KObject, type: ResourceType): boolean => {
  const group = (obj.apiVersion ?? '').includes('/') ? (obj.apiVersion ?? '').split('/')[0] : '';
  return obj.kind === type.kind && group === type.group;
};

/** Reads only: get by namespace/name, list by namespace (selectors are ignored). */
export function fakeClient(objects: KObject[]): Client {
  const unsupported = (): never => { throw new Error('fake client: writes are not supported'); };
  return {
    async get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string): Promise<T> {
      const found = objects.find((o) => matches(o, type) && o.metadata.name === name && (o.metadata.namespace ?? undefined) === (namespace ?? undefined));
      if (!found) throw errors.notFound(type.resource, name, type.group);
      return structuredClone(found) as T;
    },
    async list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
      const items = objects.filter((o) => matches(o, type) && (!options?.namespace || o.metadata.namespace === options.namespace));
      return { apiVersion: 'v1', kind: `${type.kind}List`, metadata: {}, items: structuredClone(items) as T[] };
    },
    watch: unsupported, create: unsupported, update: unsupported, updateStatus: unsupported,
    patch: unsupported, delete: unsupported, createSubresource: unsupported,
  };
}

/** `path: message` of each error, for assertions on paths and message fragments. */
export function messages(errs: FieldError[]): string[] {
  return errs.map(fieldErrorMessage);
}
