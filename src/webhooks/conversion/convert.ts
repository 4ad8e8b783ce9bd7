/**
 * `/convert`: answers a ConversionReview (apiextensions.k8s.io v1 or v1beta1) by converting every
 * object with the Kruise hub-and-spoke converters. One failure fails the whole review, with the
 * reason in `result.message`, as controller-runtime's conversion webhook does.
 */
import type { ConversionRequest, ConversionResponse, ConversionReview } from '../../api/admission.js';
import { type KObject, isObject } from '../../api/meta.js';
import { kruiseKinds } from '../../api/kruise/index.js';
import { convertKruiseObject } from '../../api/kruise/conversion/index.js';

export type ObjectConverter = (obj: KObject, toApiVersion: string) => KObject;

/** Throws on a body that is not a ConversionReview with a request (the server answers 400). */
export function parseConversionReview(body: unknown): ConversionReview & { request: ConversionRequest } {
  if (!isObject(body) || body.kind !== 'ConversionReview') throw new Error('expected a ConversionReview');
  if (body.apiVersion !== 'apiextensions.k8s.io/v1' && body.apiVersion !== 'apiextensions.k8s.io/v1beta1') {
    throw new Error(`unsupported ConversionReview version ${JSON.stringify(body.apiVersion)}`);
  }
  const request = body.request;
  if (!isObject(request) || typeof request.uid !== 'string' || typeof request.desiredAPIVersion !== 'string' || !Array.isArray(request.objects)) {
    throw new Error('ConversionReview.request must have uid, desiredAPIVersion and objects');
  }
  return body as unknown as ConversionReview & { request: ConversionRequest };
}

export function convertReview(review: ConversionReview & { request: ConversionRequest }, convert: ObjectConverter = convertKruiseObject): ConversionReview {
  const { uid, desiredAPIVersion, objects } = review.request;
  let response: ConversionResponse;
  try {
    response = { uid, convertedObjects: objects.map((o) => convertOne(o, desiredAPIVersion, convert)), result: { status: 'Success' } };
  } catch (e) {
    response = { uid, convertedObjects: [], result: { status: 'Failure', message: (e as Error).message } };
  }
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response };
}

function convertOne(obj: KObject, to: string, convert: ObjectConverter): KObject {
  if (!isObject(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') throw new Error('every object needs apiVersion and kind');
  const [group, version] = to.split('/');
  const def = kruiseKinds.find((k) => k.group === group && k.kind === obj.kind);
  if (!def || obj.apiVersion.split('/')[0] !== group) throw new Error(`unsupported conversion of ${obj.apiVersion} ${obj.kind} to ${to}`);
  if (!def.versions.some((v) => v.name === version)) throw new Error(`${obj.kind} has no version ${JSON.stringify(version)}`);
  return convert(obj, to);
}
