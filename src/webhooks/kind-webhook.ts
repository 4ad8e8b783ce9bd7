/**
 * The contract between the webhook server and the per-kind admission logic: each Kruise kind (and
 * the pod and deletion-protection handlers) exports pure-ish functions over the hub (storage)
 * version; the server does the AdmissionReview plumbing, version conversion and JSON patches.
 */
import type { AdmissionRequest } from '../api/admission.js';
import type { KObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import type { FieldError } from '../machinery/errors.js';

export interface AdmissionInput {
  /** The request as the API server sent it (operation, userInfo, dryRun, subResource, kind with its version). */
  request: AdmissionRequest;
  /** The request's object converted to the hub (storage) version; undefined on DELETE. */
  object?: KObject;
  /** The old object converted to the hub version (UPDATE and DELETE). */
  oldObject?: KObject;
  /** Version of the objects the client sent (`v1alpha1`, `v1beta1`, `v1`), for version-specific rules. */
  version: string;
  /** For reads a handler needs (pods of a workload, target workloads); never for writes of the admitted object. */
  client: Client;
  /** Whether a feature gate is on in this manager. */
  gate(name: string): boolean;
}

/** A denial that is not a list of field errors (deletion protection 403s, gate checks). */
export class AdmissionDenied extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = 'AdmissionDenied';
  }
}

export interface KindWebhooks {
  /** Defaulting on the hub version: returns the defaulted object (a copy, or the input mutated). */
  default?(input: AdmissionInput): KObject | Promise<KObject>;
  /** Validation: field errors deny with `invalidCode`; throw AdmissionDenied for other denials. */
  validate?(input: AdmissionInput): FieldError[] | Promise<FieldError[]>;
  /** HTTP code of a field-error denial: 422 for most kinds, 400 where the spec says so. */
  invalidCode?: 400 | 422;
}
