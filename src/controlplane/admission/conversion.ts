/**
 * CRD conversion through the CRD's conversion webhook (spec.conversion.strategy Webhook): a
 * ConversionReview per (CRD, desired version), batching every object asked for in the same tick
 * (a LIST converts all its items in one call, as kube does). The answer must keep the request's
 * uid, the object count, and each object's kind, name, namespace and uid; only labels and
 * annotations of the converted metadata are kept, the rest is restored from the original.
 */
import { randomUUID } from 'node:crypto';
import type { KObject } from '../../api/meta.js';
import type { ConversionReview } from '../../api/admission.js';
import { StatusError } from '../../machinery/errors.js';
import type { Converter } from '../registry/crd-resources.js';
import type { Registry } from '../registry/registry.js';
import type { WebhookClientConfig } from './webhook-config.js';
import { WebhookCallError, WebhookCaller } from './webhook-caller.js';

export interface WebhookConverterOptions {
  registry: Registry;
  caller?: WebhookCaller;
}

interface ConversionSpec { webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] } }

interface Pending { obj: KObject; resolve(o: KObject): void; reject(e: unknown): void }

interface Batch { crd: KObject; desired: string; items: Pending[] }

/** kube-apiserver calls conversion webhooks with a fixed 30s timeout. */
const timeoutSeconds = 30;

const gvkText = (o: KObject) => `${o.apiVersion}, Kind=${o.kind}`;

export function createWebhookConverter(options: WebhookConverterOptions): Converter {
  const caller = options.caller ?? new WebhookCaller(options.registry.store, options.registry.table);
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
  const m = typeof converted.metadata === 'object' && converted.metadata !== null ? converted.metadata : undefined;
  if (!m) throw invalid('missing metadata in converted object');
  const o = original.metadata;
  if ((m.name ?? '') !== (o.name ?? '')) throw invalid(`must have the same name: ${o.name ?? ''} != ${m.name ?? ''}`);
  if ((m.namespace ?? '') !== (o.namespace ?? '')) throw invalid(`must have the same namespace: ${o.namespace ?? ''} != ${m.namespace ?? ''}`);
  if ((m.uid ?? '') !== (o.uid ?? '')) throw invalid(`must have the same UID: ${o.uid ?? ''} != ${m.uid ?? ''}`);
  const metadata = { ...structuredClone(o), labels: m.labels ?? undefined, annotations: m.annotations ?? undefined };
  if (!metadata.labels) delete metadata.labels;
  if (!metadata.annotations) delete metadata.annotations;
  return { ...converted, metadata };
}
