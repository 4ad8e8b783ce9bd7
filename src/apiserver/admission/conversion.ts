/**
 * CRD conversion through the CRD's conversion webhook (spec.conversion.strategy Webhook): a
 * ConversionReview per (CRD, desired version), batching every object asked for in the same tick
 * (a LIST converts all its items in one call, as kube does). The answer must keep the request's
 * uid, the object count, and each object's kind, name, namespace and uid; only labels and
 * annotations of the converted metadata are kept (checked as kube checks them when changed), the
 * rest is restored from the original.
 */
import { randomUUID } from 'node:crypto';
import type { KObject, ObjectMeta } from '../../api/meta.js';
import type { ConversionReview } from '../../api/admission.js';
import { fieldErrorMessage, StatusError } from '../../machinery/errors.js';
import { validateAnnotations, validateLabels } from '../../machinery/validation/names.js';
import type { Converter } from '../registry/crd-resources.js';
import type { WebhookClientConfig } from './webhook-config.js';
import { WebhookCallError, type WebhookCaller } from './webhook-caller.js';

export interface WebhookConverterOptions {
  /** The HTTPS caller shared with admission webhooks (it resolves Services through the registry reader). */
  caller: WebhookCaller;
}

interface ConversionSpec { webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] } }

interface Pending { obj: KObject; resolve(o: KObject): void; reject(e: unknown): void }

interface Batch { crd: KObject; desired: string; items: Pending[] }

/** kube-apiserver calls conversion webhooks with a fixed 30s timeout. */
const timeoutSeconds = 30;

const gvkText = (o: KObject) => `${o.apiVersion}, Kind=${o.kind}`;

export function createWebhookConverter(options: WebhookConverterOptions): Converter {
  const { caller } = options;
  const pending = new Map<string, Batch>();
  return (obj, toApiVersion, crd) => {
    if (obj.apiVersion === toApiVersion) return Promise.resolve(obj);
    const key = `${crd.metadata.uid}/${crd.metadata.resourceVersion}/${toApiVersion}`;
    let batch = pending.get(key);
    if (!batch) {
      const created: Batch = { crd, desired: toApiVersion, items: [] };
      pending.set(key, (batch = created));
      queueMicrotask(() => {
        pending.delete(key);
        void convertBatch(caller, created);
      });
    }
    const b = batch;
    return new Promise<KObject>((resolve, reject) => b.items.push({ obj, resolve, reject }));
  };
}

async function convertBatch(caller: WebhookCaller, batch: Batch): Promise<void> {
  const objects = batch.items.map((p) => p.obj);
  try {
    const converted = await callWebhook(caller, batch, objects);
    batch.items.forEach((p, i) => p.resolve(converted[i]));
  } catch (e) {
    const err = e instanceof StatusError ? e : new StatusError(500, '', `conversion webhook for ${gvkText(objects[0])} failed: ${(e as Error).message}`);
    for (const p of batch.items) p.reject(err);
  }
}

async function callWebhook(caller: WebhookCaller, batch: Batch, objects: KObject[]): Promise<KObject[]> {
  const webhook = ((batch.crd.spec as { conversion?: ConversionSpec }).conversion ?? {}).webhook;
  const version = (webhook?.conversionReviewVersions ?? []).find((v) => v === 'v1' || v === 'v1beta1');
  if (!version || !webhook?.clientConfig) throw new Error('no supported conversion review versions');
  const uid = randomUUID();
  const review: ConversionReview = {
    apiVersion: `apiextensions.k8s.io/${version}` as ConversionReview['apiVersion'], kind: 'ConversionReview',
    request: { uid, desiredAPIVersion: batch.desired, objects },
  };
  let answer: Partial<ConversionReview> | null;
  try {
    answer = (await caller.post(webhook.clientConfig, JSON.stringify(review), timeoutSeconds)) as Partial<ConversionReview> | null;
  } catch (e) {
    if (e instanceof WebhookCallError) throw new Error(e.message);
    throw e;
  }
  const converted = convertedObjects(answer, version, uid);
  const what = gvkText(objects[0]);
  if (converted.length !== objects.length) {
    throw new StatusError(500, '', `conversion webhook for ${what} returned ${converted.length} objects, expected ${objects.length}`);
  }
  return objects.map((original, i) => checkConverted(what, original, converted[i], batch.desired, i));
}

/** getConvertedObjectsFromResponse: the review must answer this request and report Success. */
function convertedObjects(answer: Partial<ConversionReview> | null, version: string, uid: string): KObject[] {
  if (version === 'v1' && (answer?.apiVersion !== 'apiextensions.k8s.io/v1' || answer?.kind !== 'ConversionReview')) {
    throw new Error(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${answer?.apiVersion ?? ''}, Kind=${answer?.kind ?? ''}`);
  }
  const response = answer?.response;
  if (!response) throw new Error('no response provided');
  if (version === 'v1' && response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${response.uid ?? ''}"`);
  if (response.result?.status !== 'Success') {
    throw new Error(response.result?.message || `response.result.status was '${response.result?.status ?? ''}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

function checkConverted(what: string, original: KObject, converted: KObject, desired: string, index: number): KObject {
  const invalid = (why: string) => new StatusError(500, '', `conversion webhook for ${what} returned invalid converted object at index ${index}: ${why}`);
  if (converted?.apiVersion !== desired) throw invalid(`invalid groupVersion (expected ${desired}, received ${converted?.apiVersion ?? ''})`);
  if (converted.kind !== original.kind) throw invalid(`invalid kind (expected ${original.kind}, received ${converted.kind ?? ''})`);
  const hasMeta = typeof converted.metadata === 'object' && converted.metadata !== null && !Array.isArray(converted.metadata);
  const m: Partial<ObjectMeta> = hasMeta ? converted.metadata : {};
  const o = original.metadata;
  if ((m.name ?? '') !== (o.name ?? '')) throw invalid(`must have the same name: ${o.name ?? ''} != ${m.name ?? ''}`);
  if ((m.namespace ?? '') !== (o.namespace ?? '')) throw invalid(`must have the same namespace: ${o.namespace ?? ''} != ${m.namespace ?? ''}`);
  if ((m.uid ?? '') !== (o.uid ?? '')) throw invalid(`must have the same UID: ${o.uid ?? ''} != ${m.uid ?? ''}`);
  return { ...converted, metadata: restoredMetadata(what, original, converted.metadata, index) };
}

/**
 * restoreObjectMeta: the original metadata, with the converted object's labels and annotations,
 * which must be maps of strings and, when the webhook changed them, valid.
 */
function restoredMetadata(what: string, original: KObject, convertedMeta: unknown, index: number): ObjectMeta {
  const invalid = (why: string) => new StatusError(500, '', `conversion webhook for ${what} returned invalid metadata in object at index ${index}: ${why}`);
  if (convertedMeta === undefined || convertedMeta === null) throw invalid('missing metadata in converted object');
  if (typeof convertedMeta !== 'object' || Array.isArray(convertedMeta)) throw invalid(`invalid metadata of type ${goType(convertedMeta)} in converted object`);
  const metadata: ObjectMeta = structuredClone(original.metadata);
  for (const key of ['labels', 'annotations'] as const) {
    const value = (convertedMeta as Record<string, unknown>)[key];
    if (value === undefined || value === null) {
      delete metadata[key];
      continue;
    }
    if (typeof value !== 'object' || Array.isArray(value)) throw invalid(`invalid metadata.${key} of type ${goType(value)} in converted object`);
    const entries = Object.entries(value);
    const bad = entries.find(([, v]) => typeof v !== 'string');
    if (bad) throw invalid(`metadata.${key}[${bad[0]}] must be a string, but is ${goType(bad[1])} in converted object`);
    const map = value as Record<string, string>;
    const before = original.metadata[key] ?? {};
    const changed = Object.keys(before).length !== entries.length || entries.some(([k, v]) => before[k] !== v);
    if (changed) {
      // kube names the annotations path `metadata.annotation` here.
      const errs = key === 'labels' ? validateLabels(map, 'metadata.labels') : validateAnnotations(map, 'metadata.annotation');
      if (errs.length > 0) throw invalid(aggregate(errs.map(fieldErrorMessage)));
    }
    metadata[key] = map;
  }
  return metadata;
}

/** utilerrors.Aggregate's text: one message as is, several deduplicated in brackets. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** How Go's %T prints a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'string': return 'string';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    default: return 'map[string]interface {}';
  }
}
