/**
 * One admission webhook call: dry-run safety, the review, the HTTPS round trip, the answer's
 * checks, warnings, denial, and the failure policy (Ignore logs and skips the webhook, Fail turns
 * the failed call into 500 InternalError).
 */
import type { KObject } from '../../api/meta.js';
import type { AdmissionResponse } from '../../api/admission.js';
import { errors } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/log.js';
import type { AdmissionAttributes } from '../registry/context.js';
import type { Invocation, Matcher, RequestView } from './matching.js';
import { buildReview, CallingWebhookError, denial, dryRunUnsupported, verifyResponse } from './review.js';
import { WebhookCallError, type WebhookCaller } from './webhook-caller.js';

/** One observed webhook call, for apiserver_admission_webhook_admission_duration_seconds. */
export interface WebhookCallRecord {
  name: string;
  type: 'admit' | 'validating';
  operation: string;
  rejected: boolean;
  seconds: number;
}

export interface DispatchDeps {
  matcher: Matcher;
  caller: WebhookCaller;
  log: Logger;
  observe?: (record: WebhookCallRecord) => void;
}

async function roundTrip(deps: DispatchDeps, inv: Invocation, view: RequestView, attrs: AdmissionAttributes, object: KObject | undefined, oldObject: KObject | undefined): Promise<AdmissionResponse> {
  const hook = inv.hook;
  if (!hook.reviewVersion) throw new CallingWebhookError(hook.name, 'webhook does not accept v1 or v1beta1 AdmissionReview');
  const review = buildReview(inv, view, attrs, object, oldObject);
  let answer: unknown;
  try {
    answer = await deps.caller.post(hook.clientConfig, JSON.stringify(review), hook.timeoutSeconds);
  } catch (e) {
    if (e instanceof WebhookCallError) throw new CallingWebhookError(hook.name, `failed to call webhook: ${e.message}`);
    throw e;
  }
  return verifyResponse(inv, review, answer);
}

/**
 * Calls the webhook of `inv` with objects already in its version. Resolves with its allowing
 * response, or undefined when the call failed and the failure policy is Ignore; throws the denial.
 */
export async function callWebhook(deps: DispatchDeps, inv: Invocation, view: RequestView, attrs: AdmissionAttributes, object: KObject | undefined, oldObject: KObject | undefined): Promise<AdmissionResponse | undefined> {
  const hook = inv.hook;
  if (attrs.ctx.dryRun && !hook.dryRunSafe) throw dryRunUnsupported(hook.name);
  const started = performance.now();
  let rejected = true;
  try {
    const response = await roundTrip(deps, inv, view, attrs, object, oldObject);
    for (const w of response.warnings ?? []) attrs.ctx.warnings.push(w);
    if (!response.allowed) throw denial(hook.name, response.status);
    rejected = false;
    return response;
  } catch (e) {
    if (!(e instanceof CallingWebhookError)) throw e;
    if (!hook.failOpen) throw errors.internal(e.message);
    deps.log.warn({ webhook: hook.name, err: e.message }, 'failed calling webhook, failing open');
    return undefined;
  } finally {
    deps.observe?.({ name: hook.name, type: hook.type === 'mutating' ? 'admit' : 'validating', operation: view.operation, rejected, seconds: (performance.now() - started) / 1000 });
  }
}
