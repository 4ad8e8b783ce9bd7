/**
 * AdmissionReview requests as kube-apiserver builds them, checks of the webhook's answer, and the
 * errors a call produces: a denial (ToStatusErr), a failed call (ErrCallingWebhook, which the
 * failure policy may ignore) and 500s that no policy hides.
 */
import { randomUUID } from 'node:crypto';
import type { KObject, Status } from '../../api/meta.js';
import type { AdmissionRequest, AdmissionResponse, AdmissionReview } from '../../api/admission.js';
import { StatusError } from '../../machinery/errors.js';
import type { AdmissionAttributes } from '../registry/context.js';
import type { Invocation, RequestView } from './matching.js';

/** A call that did not produce a usable answer; failurePolicy decides whether it fails the request. */
export class CallingWebhookError extends Error {
  constructor(readonly webhookName: string, reason: string) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.name = 'CallingWebhookError';
  }
}

const optionKinds = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions', CONNECT: undefined } as const;

function requestOptions(attrs: AdmissionAttributes): unknown {
  const kind = optionKinds[attrs.operation];
  if (!kind) return attrs.options;
  const base: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (attrs.ctx.dryRun) base.dryRun = ['All'];
  if (attrs.ctx.fieldManager && kind !== 'DeleteOptions') base.fieldManager = attrs.ctx.fieldManager;
  return { ...base, ...(attrs.options as object | undefined) };
}

/** The review for one invocation; `object`/`oldObject` are already in the invocation's version. */
export function buildReview(inv: Invocation, view: RequestView, attrs: AdmissionAttributes, object: KObject | undefined, oldObject: KObject | undefined): AdmissionReview {
  const d = inv.resource.definition;
  const r = view.resource.definition;
  const user = attrs.ctx.user;
  const request: AdmissionRequest = {
    uid: randomUUID(),
    kind: inv.kind,
    resource: { group: d.group, version: d.version, resource: d.plural },
    subResource: view.subresource || undefined,
    requestKind: view.kind,
    requestResource: { group: r.group, version: r.version, resource: r.plural },
    requestSubResource: view.subresource || undefined,
    name: view.name || undefined,
    namespace: view.namespace || undefined,
    operation: view.operation,
    userInfo: { username: user.username, uid: user.uid, groups: user.groups },
    object: object ?? null,
    oldObject: oldObject ?? null,
    dryRun: attrs.ctx.dryRun,
    options: requestOptions(attrs),
  };
  return { apiVersion: `admission.k8s.io/${inv.hook.reviewVersion ?? 'v1'}`, kind: 'AdmissionReview', request };
}

/** VerifyAdmissionResponse: the answer must be a review for this request; patches only from mutating webhooks. */
export function verifyResponse(inv: Invocation, sent: AdmissionReview, answer: unknown): AdmissionResponse {
  const fail = (why: string) => new CallingWebhookError(inv.hook.name, `received invalid webhook response: ${why}`);
  const review = answer as Partial<AdmissionReview> | null;
  const response = review?.response;
  if (!response || typeof response !== 'object') throw fail('webhook response was absent');
  const v1 = inv.hook.reviewVersion === 'v1';
  if (v1 && response.uid !== sent.request!.uid) throw fail(`expected response.uid="${sent.request!.uid}", got "${response.uid ?? ''}"`);
  if (v1 && (review?.apiVersion !== sent.apiVersion || review?.kind !== 'AdmissionReview')) {
    throw fail(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${review?.apiVersion ?? ''}, Kind=${review?.kind ?? ''}`);
  }
  if (v1 && response.patch && !response.patchType) throw fail('webhook returned response.patch but not response.patchType');
  if (v1 && !response.patch && response.patchType) throw fail('webhook returned response.patchType but not response.patch');
  if (response.patch && response.patchType && response.patchType !== 'JSONPatch') throw fail(`webhook returned invalid response.patchType of "${response.patchType}"`);
  if (inv.hook.type === 'validating' && response.patch) throw fail('validating webhook may not return response.patch');
  return response;
}

/** ToStatusErr (kube-apiserver 1.32): the webhook's status with `admission webhook "<name>" denied the request`. */
export function denial(webhookName: string, result: Partial<Status> | undefined): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const code = (result?.code ?? 0) < 400 ? 400 : result!.code!;
  const message = result?.message ? `${deniedBy}: ${result.message}` : result?.reason ? `${deniedBy}: ${result.reason}` : `${deniedBy} without explanation`;
  return new StatusError(code, result?.reason ?? '', message, result?.details);
}

export function dryRunUnsupported(webhookName: string): StatusError {
  return new StatusError(400, 'BadRequest', `admission webhook "${webhookName}" does not support dry run`);
}
