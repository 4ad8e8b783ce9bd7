/**
 * Test kit for the protection handlers (imported only by tests): a fake Client that serves lists
 * from fixed objects per resource (or fails them), DELETE admission inputs, counter readings, and
 * a temporary protection log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Counter } from 'prom-client';
import type { AdmissionRequest } from '../../api/admission.js';
import type { KList, KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client, ListOptions } from '../../client/client.js';
import { StatusError } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { protectionLog } from './protection-log.js';

export interface FakeListCall { type: ResourceType; options?: ListOptions }

/** Lists `objects[resource]` (filtered by namespace); a resource in `failing` answers 500. */
export function fakeClient(objects: Record<string, KObject[]> = {}, failing: string[] = []): Client & { calls: FakeListCall[] } {
  const calls: FakeListCall[] = [];
  const unsupported = (): never => { throw new Error('fake client: only list is supported'); };
  return {
    calls,
    async list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
      calls.push({ type, options });
      if (failing.includes(type.resource)) throw new StatusError(500, 'InternalError', `etcd unavailable for ${type.resource}`);
      const items = (objects[type.resource] ?? []).filter((o) => !options?.namespace || o.metadata.namespace === options.namespace);
      return { apiVersion: 'v1', kind: 'List', metadata: {}, items: items as T[] };
    },
    get: unsupported, watch: unsupported, create: unsupported, update: unsupported, updateStatus: unsupported,
    patch: unsupported, delete: unsupported, createSubresource: unsupported,
  };
}

export interface DeleteInputOptions {
  group?: string;
  gates?: Record<string, boolean>;
  client?: Client;
  dryRun?: boolean;
  subResource?: string;
  operation?: AdmissionRequest['operation'];
  username?: string;
}

/** A DELETE of `obj` (kind `kind`) by user `alice`, gate ResourcesDeletionProtection on unless overridden. */
export function deleteInput(kind: string, obj: KObject | undefined, options: DeleteInputOptions = {}): AdmissionInput {
  const gates: Record<string, boolean> = { ResourcesDeletionProtection: true, ...options.gates };
  const request: AdmissionRequest = {
    uid: 'req-1', kind: { group: options.group ?? '', version: 'v1', kind }, resource: { group: options.group ?? '', version: 'v1', resource: `${kind.toLowerCase()}s` },
    name: obj?.metadata.name, namespace: obj?.metadata.namespace, operation: options.operation ?? 'DELETE',
    userInfo: { username: options.username ?? 'alice' }, oldObject: obj, dryRun: options.dryRun, subResource: options.subResource,
  };
  return { request, oldObject: obj, version: 'v1', client: options.client ?? fakeClient(), gate: (name) => gates[name] ?? false };
}

export function labelled(value: string | undefined, meta: { name: string; namespace?: string; deletionTimestamp?: string }, rest: Record<string, unknown> = {}): KObject {
  const labels = value === undefined ? undefined : { 'policy.kruise.io/delete-protection': value };
  return { metadata: { ...meta, labels }, ...rest };
}

export async function counterValue(counter: Counter, labels: Record<string, string>): Promise<number> {
  const { values } = await counter.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return hit?.value ?? 0;
}

/** Points the protection log at a fresh directory; `lines()` reads it back, `close()` turns it off. */
export async function tempProtectionLog(): Promise<{ dir: string; lines(): Promise<unknown[]>; close(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'protection-log-'));
  protectionLog.configure(dir);
  return {
    dir,
    async lines() {
      const text = await readFile(path.join(dir, 'protection.log'), 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
    },
    async close() {
      protectionLog.configure(undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
