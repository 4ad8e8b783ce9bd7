/**
 * Test kit for the job, sidecar and probe admission handlers (imported only by tests): admission
 * inputs built directly, a read-only fake Client serving fixed objects, YAML fixtures and
 * assertions on field errors by path and message fragment.
 */
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { AdmissionOperation, AdmissionRequest } from '../../api/admission.js';
import type { KList, KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client, ListOptions } from '../../client/client.js';
import { errors, fieldErrorMessage, StatusError, type FieldError } from '../../machinery/errors.js';
import { selectorMatches } from '../../machinery/validation/label-selector.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from '../kind-webhook.js';

export interface InputOptions {
  oldObject?: KObject;
  operation?: AdmissionOperation;
  version?: string;
  gates?: Record<string, boolean>;
  client?: Client;
  subResource?: string;
}

/** Gates on by default in OpenKruise that these handlers consult. */
const defaultGates: Record<string, boolean> = { KruiseDaemon: true, PodProbeMarkerGate: true };

export function admissionInput(object: KObject | undefined, o: InputOptions = {}): AdmissionInput {
  const obj = object ?? o.oldObject;
  const [group, version] = (obj?.apiVersion ?? 'apps.kruise.io/v1beta1').split('/');
  const kind = obj?.kind ?? 'Unknown';
  const request: AdmissionRequest = {
    uid: 'req-1', kind: { group, version, kind }, resource: { group, version, resource: `${kind.toLowerCase()}s` },
    name: obj?.metadata.name, namespace: obj?.metadata.namespace, operation: o.operation ?? (o.oldObject ? 'UPDATE' : 'CREATE'),
    userInfo: { username: 'alice' }, object, oldObject: o.oldObject, subResource: o.subResource,
  };
  const gates = { ...defaultGates, ...o.gates };
  return { request, object, oldObject: o.oldObject, version: o.version ?? version, client: o.client ?? fakeClient(), gate: (n) => gates[n] ?? false };
}

/** Serves get/list of `objects` keyed by resource plural; label selectors of the `a=b,c=d` form only. */
export function fakeClient(objects: Record<string, KObject[]> = {}): Client & { gets: string[] } {
  const gets: string[] = [];
  const unsupported = (): never => { throw new Error('fake client: read-only'); };
  const find = (type: ResourceType, ns: string | undefined) => (objects[type.resource] ?? []).filter((o) => !ns || o.metadata.namespace === ns);
  return {
    gets,
    async get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string): Promise<T> {
      gets.push(`${type.resource}/${namespace ?? ''}/${name}`);
      const hit = find(type, namespace).find((o) => o.metadata.name === name);
      if (!hit) throw errors.notFound(type.resource, name, type.group);
      return structuredClone(hit) as T;
    },
    async list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
      const wanted = Object.fromEntries((options?.labelSelector ?? '').split(',').filter(Boolean).map((kv) => kv.split('=')));
      const items = find(type, options?.namespace).filter((o) => selectorMatches({ matchLabels: wanted }, o.metadata.labels ?? {}));
      return { apiVersion: 'v1', kind: 'List', metadata: {}, items: structuredClone(items) as T[] };
    },
    watch: unsupported, create: unsupported, update: unsupported, updateStatus: unsupported,
    patch: unsupported, delete: unsupported, createSubresource: unsupported,
  };
}

export const fromYaml = (text: string): KObject => parse(text) as KObject;

/** Mutate then validate, as the API server chains the two webhooks; returns the stored object and the errors. */
export async function admit(hooks: KindWebhooks, input: AdmissionInput): Promise<{ object: KObject; errors: FieldError[] }> {
  const object = hooks.default ? await hooks.default(input) : (input.object as KObject);
  const errs = hooks.validate ? await hooks.validate({ ...input, object }) : [];
  return { object, errors: errs };
}

/** Asserts that some error sits at `path` and its printed message contains `fragment`. */
export function assertHasError(errs: FieldError[], path: string, fragment: string): void {
  const printed = errs.map(fieldErrorMessage);
  assert.ok(errs.some((e) => e.field === path && fieldErrorMessage(e).includes(fragment)),
    `expected an error at ${path} containing ${JSON.stringify(fragment)}, got:\n  ${printed.join('\n  ') || '(none)'}`);
}

export function assertNoErrors(errs: FieldError[]): void {
  assert.deepEqual(errs.map(fieldErrorMessage), []);
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

export { StatusError };
