/**
 * Test kit for the protection handlers (imported only by tests), on top of the webhook test kit:
 * DELETE admission inputs, lists that fail, counter readings, and a temporary protection log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Counter } from 'prom-client';
import type { AdmissionOperation } from '../../api/admission.js';
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { StatusError } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { admissionInput } from '../testkit.js';
import { protectionLog } from './protection-log.js';

export { fakeClient } from '../testkit.js';

/** A failList hook for fakeClient: lists of these resources answer 500. */
export function failing(...resources: string[]): (type: ResourceType) => Error | undefined {
  return (type) => (resources.includes(type.resource) ? new StatusError(500, 'InternalError', `etcd unavailable for ${type.resource}`) : undefined);
}

export interface DeleteInputOptions {
  group?: string;
  gates?: Record<string, boolean>;
  client?: Client;
  dryRun?: boolean;
  subResource?: string;
  operation?: AdmissionOperation;
  username?: string;
}

/** A DELETE of `obj` (kind `kind`, version v1) by user `alice`, gate ResourcesDeletionProtection on unless overridden. */
export function deleteInput(kind: string, obj: KObject | undefined, options: DeleteInputOptions = {}): AdmissionInput {
  return admissionInput({
    ...options, oldObject: obj, kind, group: options.group ?? '', version: 'v1', operation: options.operation ?? 'DELETE',
    gates: { ResourcesDeletionProtection: true, ...options.gates },
  });
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
