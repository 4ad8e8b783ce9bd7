/**
 * Per-resource behaviour of the generic registry, in the spirit of kube-apiserver's
 * RESTCreateStrategy/RESTUpdateStrategy: defaults, validation and field-selector attributes.
 * Every hook is optional; the generic store supplies metadata handling for all resources.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import type { TablePrinter } from '../../api/resource.js';
import type { UserInfo } from '../../api/request.js';

export interface ResourceStrategy {
  /** Fill server-side defaults in place (runs on create and update, after decoding). */
  default?(obj: KObject): void;
  /**
   * What kube-apiserver's built-in mutating admission plugins add (pods: ServiceAccount,
   * DefaultTolerationSeconds, Priority). Runs after `default` and before webhooks; on create the
   * writer does not own what it adds in managedFields, as in kube.
   */
  admissionDefaults?(obj: KObject): void;
  /** Create-only preparation (e.g. pod status.phase=Pending, Service clusterIP allocation); `user` is the requester (CSR spec.username). */
  prepareForCreate?(obj: KObject, user?: UserInfo): void;
  /** Update preparation with the stored object at hand (e.g. carry over allocated fields). */
  prepareForUpdate?(obj: KObject, old: KObject): void;
  /** `old`, on update, is the stored object: a part it shares by reference was validated at its own write. */
  validate?(obj: KObject, old?: KObject): FieldError[];
  validateUpdate?(obj: KObject, old: KObject): FieldError[];
  /** Values of the kind's extra field-selector labels, e.g. pods `spec.nodeName`, `status.phase`. */
  fieldAttributes?(obj: KObject): Record<string, string>;
  /** Server-side printing for `kubectl get`; absent means NAME and AGE. */
  table?: TablePrinter;
  /**
   * Deletion grace in seconds when the client gives none (pods: terminationGracePeriodSeconds); a
   * kind with it is deleted gracefully (deletionTimestamp first, removal at grace 0).
   */
  defaultGracePeriodSeconds?(obj: KObject): number;
  /** Whatever grace the client asks, this object goes at once (pods not on a node, or finished). */
  deletesAtOnce?(obj: KObject): boolean;
  /**
   * A deleted object this holds back until it is empty (namespaces: spec.finalizers, cleared by the
   * namespace controller through `finalize`); called with the object being marked, it may also set
   * its terminating status.
   */
  heldWhileTerminating?(obj: KObject): boolean;
  /** Throws when this object may not be deleted at all (NamespaceLifecycle: default, kube-system, kube-public). */
  checkDelete?(obj: KObject): void;
  /** Marks a held object as terminating (namespaces: status.phase Terminating). */
  markTerminating?(obj: KObject): void;
  /** Annotation changes bump metadata.generation too (apps/v1 Deployments, for the legacy rollback annotation). */
  annotationsBumpGeneration?: boolean;
  /**
   * A DELETE that removes the object answers with it rather than a Success Status (kube's
   * ReturnDeletedObject: pods, services, namespaces, persistent volumes and claims, ...).
   */
  returnDeletedObject?: boolean;
  /** Default propagation when the client sends none (batch/v1 Job: Orphan). */
  defaultPropagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
}
