/** Checks that a request body is an AdmissionReview (v1 or v1beta1) carrying a request. */
import type { AdmissionRequest, AdmissionReview } from '../../api/admission.js';
import { isObject } from '../../api/meta.js';

export function parseAdmissionReview(body: unknown): AdmissionReview & { request: AdmissionRequest } {
  if (!isObject(body) || body.kind !== 'AdmissionReview') throw new Error('expected an AdmissionReview');
  if (body.apiVersion !== 'admission.k8s.io/v1' && body.apiVersion !== 'admission.k8s.io/v1beta1') {
    throw new Error(`unsupported AdmissionReview version ${JSON.stringify(body.apiVersion)}`);
  }
  const request = body.request;
  if (!isObject(request)) throw new Error('AdmissionReview has no request');
  if (typeof request.uid !== 'string' || !request.uid) throw new Error('AdmissionReview.request.uid is required');
  if (typeof request.operation !== 'string') throw new Error('AdmissionReview.request.operation is required');
  const kind = request.kind;
  if (!isObject(kind) || typeof kind.kind !== 'string' || typeof kind.version !== 'string' || typeof kind.group !== 'string') {
    throw new Error('AdmissionReview.request.kind must have group, version and kind');
  }
  if (request.object !== undefined && request.object !== null && !isObject(request.object)) throw new Error('AdmissionReview.request.object must be an object');
  if (request.oldObject !== undefined && request.oldObject !== null && !isObject(request.oldObject)) throw new Error('AdmissionReview.request.oldObject must be an object');
  if (isObject(request.object) && !isObject(request.object.metadata)) request.object.metadata = {};
  if (isObject(request.oldObject) && !isObject(request.oldObject.metadata)) request.oldObject.metadata = {};
  if (!isObject(request.userInfo)) request.userInfo = {};
  return body as unknown as AdmissionReview & { request: AdmissionRequest };
}
