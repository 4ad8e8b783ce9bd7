/**
 * The steps every deletion-protection handler shares (docs/design/webhooks.md §12): which requests are
 * examined at all, the label value, the contractual messages, and the denial itself (metric,
 * protection log line, 403).
 */
import type { KObject } from '../../api/meta.js';
import { DeletionProtection, DeletionProtectionLabel } from '../../api/kruise/workloads/labels.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { protectionLog } from './protection-log.js';

export const ResourcesDeletionProtectionGate = 'ResourcesDeletionProtection';
export const CrdCascadingGate = 'DeletionProtectionForCRDCascadingGate';

export type ProtectionValue = (typeof DeletionProtection)[keyof typeof DeletionProtection];

const prefix = 'forbidden by ResourcesProtectionDeletion for';

/** Rules 1-3: the object a DELETE would remove, or undefined when protection does not apply. */
export function protectedObject(input: AdmissionInput): KObject | undefined {
  const { request, oldObject } = input;
  if (request.operation !== 'DELETE' || request.subResource) return undefined;
  if (!oldObject) return undefined;
  if (!input.gate(ResourcesDeletionProtectionGate)) return undefined;
  if (oldObject.metadata.deletionTimestamp) return undefined;
  return oldObject;
}

/** `Always` or `Cascading`; any other value (or none) protects nothing. */
export function protectionValue(obj: KObject): ProtectionValue | undefined {
  const value = obj.metadata.labels?.[DeletionProtectionLabel];
  return value === DeletionProtection.Always || value === DeletionProtection.Cascading ? value : undefined;
}

export const messages = {
  always: () => `${prefix} ${DeletionProtectionLabel}=${DeletionProtection.Always}`,
  /** `detail` is e.g. `replicas 2>0`, `active pods 1>0`. */
  cascading: (detail: string) => `${prefix} ${DeletionProtectionLabel}=${DeletionProtection.Cascading} and ${detail}`,
  listFailed: (what: string, err: unknown) => `${prefix} list ${what} error: ${errorText(err)}`,
};

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function username(input: AdmissionInput): string {
  return input.request.userInfo?.username ?? '';
}

export interface Denial {
  kind: string;
  namespace: string;
  name: string;
  /** Increments the kind's counter. */
  count(): void;
}

/**
 * Rules 1-5 for one DELETE: undefined when nothing is protected, the 403 for `Always`, else the
 * object `Cascading` protects and the denial the kind's own checks raise. `count` increments the
 * kind's counter; cluster-scoped kinds log an empty namespace.
 */
export async function checkProtection(input: AdmissionInput, kind: string, namespaced: boolean,
  count: (name: string, namespace: string) => void): Promise<{ obj: KObject; denial: Denial } | undefined> {
  const obj = protectedObject(input);
  const value = obj && protectionValue(obj);
  if (!obj || !value) return undefined;
  const namespace = namespaced ? obj.metadata.namespace ?? input.request.namespace ?? '' : '';
  const name = obj.metadata.name ?? input.request.name ?? '';
  const denial: Denial = { kind, namespace, name, count: () => count(name, namespace) };
  if (value === DeletionProtection.Always) await deny(input, denial, messages.always());
  return { obj, denial };
}

/** Rule 6: counts the rejection, writes the protection log line, then throws the 403. */
export async function deny(input: AdmissionInput, denial: Denial, message: string): Promise<never> {
  denial.count();
  await protectionLog.record({ event: 'DeletionProtection', kind: denial.kind, namespace: denial.namespace, name: denial.name, userAgent: username(input) });
  throw new AdmissionDenied(403, message);
}
