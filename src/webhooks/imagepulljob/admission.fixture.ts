/**
 * Test kit for the per-kind admission logic: an AdmissionInput built directly (no server), and a
 * fake Client that serves get/list from a fixed set of objects and hands creates to a hook.
 */
import type { AdmissionOperation } from '../../api/admission.js';
import type { KList, KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client, ListOptions, WriteOptions } from '../../client/client.js';
import { errors } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';

export interface FakeClientOptions {
  /** Objects served by get/list (their `kind` selects the resource). */
  objects?: KObject[];
  /** Called for every create; throw a StatusError to fail it. */
  onCreate?(type: ResourceType, obj: KObject, options?: WriteOptions): void;
  /** Thrown by every list (to test lookup failures). */
  listError?: Error;
}

export function fakeClient(opts: FakeClientOptions = {}): Client & { creates: KObject[] } {
  const objects = opts.objects ?? [];
  const creates: KObject[] = [];
  const unsupported = (): never => { throw new Error('not supported by the fake client'); };
  const ofType = (type: ResourceType) => objects.filter((o) => o.kind === type.kind);
  return {
    creates,
    async get<T extends KObject>(type: ResourceType, namespace: string | undefined, name: string): Promise<T> {
      const found = ofType(type).find((o) => o.metadata.name === name && (o.metadata.namespace ?? undefined) === namespace);
      if (!found) throw errors.notFound(type.resource, name, type.group);
      return structuredClone(found) as T;
    },
    async list<T extends KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
      if (opts.listError) throw opts.listError;
      const items = ofType(type).filter((o) => !options?.namespace || o.metadata.namespace === options.namespace);
      return { apiVersion: 'v1', kind: `${type.kind}List`, metadata: {}, items: structuredClone(items) as T[] };
    },
    async create<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T> {
      opts.onCreate?.(type, obj, options);
      creates.push(structuredClone(obj));
      return obj;
    },
    watch: unsupported, update: unsupported, updateStatus: unsupported, patch: unsupported, delete: unsupported, createSubresource: unsupported,
  };
}

export interface InputOptions {
  old?: unknown;
  version?: string;
  /** Gates that are on; every other gate is off. */
  gates?: string[];
  client?: Client;
}

export function admissionInput(operation: AdmissionOperation, object: unknown, opts: InputOptions = {}): AdmissionInput {
  const obj = object as KObject;
  const [group, version] = (obj.apiVersion ?? '/').split('/');
  const gates = new Set(opts.gates ?? []);
  return {
    request: {
      uid: 'test', operation, userInfo: { username: 'tester' },
      kind: { group, version: opts.version ?? version, kind: obj.kind ?? '' },
      resource: { group, version: opts.version ?? version, resource: `${(obj.kind ?? '').toLowerCase()}s` },
      name: obj.metadata?.name, namespace: obj.metadata?.namespace,
    },
    object: obj,
    oldObject: opts.old as KObject | undefined,
    version: opts.version ?? version,
    client: opts.client ?? fakeClient(),
    gate: (name) => gates.has(name),
  };
}
