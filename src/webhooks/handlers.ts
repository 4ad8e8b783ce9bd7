/**
 * AdmissionReview plumbing around the per-kind logic (kind-webhook.ts), as controller-runtime's
 * admission package does it: objects of Kruise kinds are converted to the hub (storage) version
 * before the kind sees them; defaulting answers with a JSON Patch against the object exactly as the
 * API server sent it; field errors, AdmissionDenied and unexpected exceptions become denials. A
 * handler never throws.
 */
import jsonpatch from 'fast-json-patch';
import type { AdmissionRequest, AdmissionResponse, GroupVersionKind } from '../api/admission.js';
import type { KObject } from '../api/meta.js';
import { kruiseKinds } from '../api/kruise/index.js';
import { convertKruiseObject } from '../api/kruise/conversion/index.js';
import type { WebhookType } from '../api/kruise/webhook-inventory.js';
import type { Client } from '../client/client.js';
import { clone } from '../machinery/deep-equal.js';
import { fieldErrorMessage, type FieldError } from '../machinery/errors.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from './kind-webhook.js';

/** What every handler gets from the manager. */
export interface HandlerContext {
  client: Client;
  gate(name: string): boolean;
}

export type AdmissionHandler = (request: AdmissionRequest) => Promise<AdmissionResponse>;

/** The handler for a mutating or validating entry, or undefined when the kind module has no such hook. */
export function admissionHandler(type: WebhookType, hooks: KindWebhooks, ctx: HandlerContext): AdmissionHandler | undefined {
  if (type === 'mutating') return hooks.default && ((req) => guarded(req, () => mutate(req, hooks, ctx)));
  return hooks.validate && ((req) => guarded(req, () => validate(req, hooks, ctx)));
}

const storageVersions = new Map(kruiseKinds.map((k) => [`${k.group}/${k.kind}`, k.versions.find((v) => v.storage)!.name]));

/** apiVersion of the hub of a Kruise kind; undefined for every other kind (handled as sent). */
export function hubApiVersion(gvk: GroupVersionKind): string | undefined {
  const storage = storageVersions.get(`${gvk.group}/${gvk.kind}`);
  return storage && `${gvk.group}/${storage}`;
}

const apiVersionOf = (gvk: GroupVersionKind) => (gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version);

/** The object as sent, with apiVersion/kind filled in from the request when absent. */
function sent(obj: KObject | null | undefined, gvk: GroupVersionKind): KObject | undefined {
  if (!obj) return undefined;
  return { ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(gvk), kind: obj.kind ?? gvk.kind };
}

/**
 * The object as the kind's hook sees it: in the hub version for Kruise kinds, and a private copy
 * when the hook may change it (defaulting, whose result is diffed against the object as sent).
 * A validating hook reads the request's own objects: copying two pods per pod update was a
 * noticeable share of the manager's CPU in a rollout (docs/design/performance.md §17).
 */
function toHub(obj: KObject | undefined, gvk: GroupVersionKind, copy: boolean): KObject | undefined {
  if (!obj) return undefined;
  const hub = hubApiVersion(gvk);
  if (!hub) return copy ? clone(obj) : obj;
  try {
    const converted = convertKruiseObject(obj, hub);
    return copy ? clone(converted) : converted;
  } catch (e) {
    throw new AdmissionDenied(400, `cannot convert ${obj.apiVersion} ${gvk.kind} to ${hub}: ${(e as Error).message}`);
  }
}

function inputOf(req: AdmissionRequest, ctx: HandlerContext, copy: boolean): AdmissionInput {
  return {
    request: req,
    object: toHub(sent(req.object, req.kind), req.kind, copy),
    oldObject: toHub(sent(req.oldObject, req.kind), req.kind, copy),
    version: req.kind.version,
    client: ctx.client,
    gate: (name) => ctx.gate(name),
  };
}

async function mutate(req: AdmissionRequest, hooks: KindWebhooks, ctx: HandlerContext): Promise<AdmissionResponse> {
  const original = sent(req.object, req.kind);
  if (!original || req.operation === 'DELETE') return allowed(req);
  const input = inputOf(req, ctx, true);
  const defaulted = await hooks.default!(input);
  const back = hubApiVersion(req.kind) ? convertKruiseObject(defaulted, original.apiVersion!) : defaulted;
  const patch = jsonpatch.compare(original, back);
  if (patch.length === 0) return allowed(req);
  return { ...allowed(req), patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
}

async function validate(req: AdmissionRequest, hooks: KindWebhooks, ctx: HandlerContext): Promise<AdmissionResponse> {
  const errs = await hooks.validate!(inputOf(req, ctx, false));
  if (errs.length === 0) return allowed(req);
  return denied(req, hooks.invalidCode ?? 422, aggregateMessage(errs));
}

/** apimachinery's ToAggregate().Error(): one message as is, several as `[a, b]`, duplicates dropped. */
export function aggregateMessage(errs: FieldError[]): string {
  const messages = [...new Set(errs.map(fieldErrorMessage))];
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

async function guarded(req: AdmissionRequest, run: () => Promise<AdmissionResponse>): Promise<AdmissionResponse> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AdmissionDenied) return denied(req, e.code, e.message, e.code === 403 ? 'Forbidden' : undefined);
    return denied(req, 500, e instanceof Error ? e.message : String(e));
  }
}

export function allowed(req: Pick<AdmissionRequest, 'uid'>): AdmissionResponse {
  return { uid: req.uid, allowed: true, status: { code: 200 } };
}

export function denied(req: Pick<AdmissionRequest, 'uid'>, code: number, message: string, reason?: string): AdmissionResponse {
  return { uid: req.uid, allowed: false, status: { code, message, ...(reason ? { reason } : {}) } };
}
