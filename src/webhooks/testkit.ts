/**
 * Test kit for the per-kind admission logic (imported only by tests): an AdmissionInput built
 * directly (no server), a fake Client serving get/list from fixed objects, YAML fixtures, and
 * assertions on field errors by path and message fragment.
 */
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { AdmissionOperation, AdmissionRequest } from '../api/admission.js';
import type { KList, KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client, ListOptions, WriteOptions } from '../client/client.js';
import { errors, fieldErrorMessage, type FieldError } from '../machinery/errors.js';
import { parseLabelSelector } from '../machinery/labels.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from './kind-webhook.js';

export interface FakeClientOptions {
  /** Served by get and list: matched on kind, and on group when the object's apiVersion names one. */
  objects?: KObject[];
  /** An error to fail a list of `type` with, or undefined to serve it. */
  failList?(type: ResourceType): Error | undefined;
  /** Called for every create; throw a StatusError to fail it. */
  onCreate?(type: ResourceType, obj: KObject, options?: WriteOptions): void;
}

export interface FakeListCall { type: ResourceType; options?: ListOptions }

/** A Client over fixed objects: reads, and creates handed to a hook; other writes throw. */
export type FakeClient = Client & { lists: FakeListCall[]; creates: KObject[] };

const splitApiVersion = (apiVersion: string): { group: string; version: string } => {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
};

const isOfType = (obj: KObject, type: ResourceType): boolean =>
  obj.kind === type.kind && (!obj.apiVersion || splitApiVersion(obj.apiVersion).group === type.group);

export function fakeClient(opts: FakeClientOptions = {}): FakeClient {
  const objects = opts.objects ?? [];
  const lists: FakeListCall[] = [];
  const creates: KObject[] = [];
  const unsupported = (): never => { throw new Error('fake client: only get, list and create are supported'); };
  const inNamespace = (o: KObject, namespace: string | undefined) => !namespace || o.metadata.namespace === namespace;
  return {
    lists,
    creates,
    async get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string): Promise<T> {
      const found = objects.find((o) => isOfType(o, type) && o.metadata.name === name && (o.metadata.namespace ?? undefined) === (namespace ?? undefined));
      if (!found) throw errors.notFound(type.resource, name, type.group);
      return structuredClone(found) as T;
    },
    async list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
      lists.push({ type, options });
      const failure = opts.failList?.(type);
      if (failure) throw failure;
      const selector = parseLabelSelector(options?.labelSelector ?? '');
      const items = objects.filter((o) => isOfType(o, type) && inNamespace(o, options?.namespace) && selector.matches(o.metadata.labels));
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

/** KObjects and the typed Kruise objects alike (whose metadata is optional). */
type AnyObject = KObject | { apiVersion?: string; kind?: string; metadata?: object };

export interface InputOptions {
  object?: AnyObject;
  oldObject?: AnyObject;
  /** Default: UPDATE with an oldObject, else CREATE. */
  operation?: AdmissionOperation;
  /** Default: from the object's apiVersion (else apps.kruise.io/v1beta1). */
  group?: string;
  version?: string;
  /** Default: the object's kind. */
  kind?: string;
  /** Gates that are on; every other gate is off. */
  gates?: Record<string, boolean>;
  /** Default: a fakeClient over `objects`. */
  client?: Client;
  objects?: KObject[];
  subResource?: string;
  dryRun?: boolean;
  /** Default: alice. */
  username?: string;
}

export function admissionInput(o: InputOptions): AdmissionInput {
  const object = o.object as KObject | undefined;
  const oldObject = o.oldObject as KObject | undefined;
  const obj = object ?? oldObject;
  const fromObject = obj?.apiVersion ? splitApiVersion(obj.apiVersion) : { group: 'apps.kruise.io', version: 'v1beta1' };
  const group = o.group ?? fromObject.group;
  const version = o.version ?? fromObject.version;
  const kind = o.kind ?? obj?.kind ?? 'Unknown';
  const request: AdmissionRequest = {
    uid: 'req-1', kind: { group, version, kind }, resource: { group, version, resource: `${kind.toLowerCase()}s` },
    name: obj?.metadata?.name, namespace: obj?.metadata?.namespace, operation: o.operation ?? (oldObject ? 'UPDATE' : 'CREATE'),
    userInfo: { username: o.username ?? 'alice' }, object, oldObject, subResource: o.subResource, dryRun: o.dryRun,
  };
  const gates = o.gates ?? {};
  return {
    request, object, oldObject, version,
    client: o.client ?? fakeClient({ objects: o.objects }), gate: (name) => gates[name] ?? false,
  };
}

/** `{ A: true, B: true }` from `enabled('A', 'B')`. */
export const enabled = (...gates: string[]): Record<string, boolean> => Object.fromEntries(gates.map((g) => [g, true]));

export const fromYaml = (text: string): KObject => parse(text) as KObject;

/** Mutate then validate, as the API server chains the two webhooks; returns the stored object and the errors. */
export async function admit(hooks: KindWebhooks, input: AdmissionInput): Promise<{ object: KObject; errors: FieldError[] }> {
  const object = hooks.default ? await hooks.default(input) : (input.object as KObject);
  const errs = hooks.validate ? await hooks.validate({ ...input, object }) : [];
  return { object, errors: errs };
}

/** `path: message` of each error, for assertions on paths and message fragments. */
export function messages(errs: FieldError[]): string[] {
  return errs.map(fieldErrorMessage);
}

/** Asserts that some error sits at `path` and its printed message contains `fragment`. */
export function assertHasError(errs: FieldError[], path: string, fragment: string): void {
  assert.ok(errs.some((e) => e.field === path && fieldErrorMessage(e).includes(fragment)),
    `expected an error at ${path} containing ${JSON.stringify(fragment)}, got:\n  ${messages(errs).join('\n  ') || '(none)'}`);
}

/** Asserts that some printed message (`path: Type: detail`) contains `fragment`. */
export function assertSomeMessage(msgs: string[], fragment: string): void {
  assert.ok(msgs.some((m) => m.includes(fragment)), `expected "${fragment}" in ${JSON.stringify(msgs)}`);
}

export function assertNoErrors(errs: FieldError[]): void {
  assert.deepEqual(messages(errs), []);
}

/** Runs `fn` and returns the AdmissionDenied it throws (fails when it does not). */
export async function denial(fn: () => unknown): Promise<AdmissionDenied> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof AdmissionDenied) return e;
    throw e;
  }
  assert.fail('expected an AdmissionDenied');
}
