/** Per-request options the registry acts on, filled by the HTTP layer or the in-process client. */
import type { KObject } from '../../api/meta.js';
import type { UserInfo } from '../../api/request.js';
import type { ServedResource } from './served-resource.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface RequestContext {
  user: UserInfo;
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: FieldValidation;
  /** Warnings to return as `Warning: 299 - "..."` headers. */
  warnings: string[];
  userAgent?: string;
  /** Keys the JSON body repeated (paths), for fieldValidation to report like unknown fields. */
  duplicateFields?: string[];
}

export function systemContext(username = 'system:apiserver'): RequestContext {
  return { user: { username, groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [], userAgent: 'kube-apiserver/v1.32.4' };
}

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  resource: ServedResource;
  subresource?: string;
  namespace?: string;
  name?: string;
  object?: KObject;
  oldObject?: KObject;
  options?: unknown;
  ctx: RequestContext;
}

/**
 * Admission seam: mutating plugins run before validation, validating ones after.
 * The webhook dispatcher and built-in plugins implement it; the registry only calls it.
 */
export interface Admission {
  mutate(attrs: AdmissionAttributes): Promise<KObject | undefined>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

export const noAdmission: Admission = {
  mutate: async (attrs) => attrs.object,
  validate: async () => undefined,
};
