/**
 * Wire types of admission and conversion webhooks: `AdmissionReview` (admission.k8s.io/v1) and
 * `ConversionReview` (apiextensions.k8s.io/v1), as the API server sends them and webhooks answer.
 */
import type { KObject, Status } from './meta.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind { group: string; version: string; kind: string }
export interface GroupVersionResource { group: string; version: string; resource: string }

export interface AdmissionUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  /** The kind and resource the client asked for (differ from kind/resource under matchPolicy Equivalent). */
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: AdmissionOperation;
  userInfo: AdmissionUserInfo;
  /** The new object (absent on DELETE). */
  object?: KObject | null;
  /** The existing object (UPDATE and DELETE). */
  oldObject?: KObject | null;
  dryRun?: boolean;
  /** CreateOptions / UpdateOptions / DeleteOptions of the request. */
  options?: unknown;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  /** Why a request was denied: code (>= 400), message, reason. */
  status?: Partial<Status>;
  /** base64 of a JSON Patch (RFC 6902). */
  patch?: string;
  patchType?: 'JSONPatch';
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: 'admission.k8s.io/v1' | 'admission.k8s.io/v1beta1';
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

export interface ConversionRequest {
  uid: string;
  /** apiVersion every object is to be converted to, e.g. `apps.kruise.io/v1beta1`. */
  desiredAPIVersion: string;
  objects: KObject[];
}

export interface ConversionResponse {
  uid: string;
  convertedObjects: KObject[];
  /** `{status: 'Success'}` or `{status: 'Failure', message}`. */
  result: Partial<Status>;
}

export interface ConversionReview {
  apiVersion: 'apiextensions.k8s.io/v1' | 'apiextensions.k8s.io/v1beta1';
  kind: 'ConversionReview';
  request?: ConversionRequest;
  response?: ConversionResponse;
}
