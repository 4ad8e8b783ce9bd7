/**
 * Validating webhooks, called in parallel on the final object; every one must allow. When several
 * fail, the error of the first in webhook order is returned (kube returns whichever it saw first).
 */
import type { AdmissionAttributes } from '../registry/context.js';
import type { Webhook } from './webhook-config.js';
import type { Invocation } from './matching.js';
import { callWebhook, type DispatchDeps } from './call.js';
import { requestView, toInvocationVersion } from './request-view.js';

export async function runValidatingWebhooks(deps: DispatchDeps, hooks: readonly Webhook[], attrs: AdmissionAttributes): Promise<void> {
  const view = requestView(attrs, attrs.object);
  const invocations: Invocation[] = [];
  for (const hook of hooks) {
    const inv = deps.matcher.match(hook, view);
    if (inv) invocations.push(inv);
  }
  if (invocations.length === 0) return;
  const outcomes = await Promise.all(invocations.map(async (inv) => {
    try {
      const object = await toInvocationVersion(inv, view, view.object);
      const oldObject = await toInvocationVersion(inv, view, view.oldObject);
      await callWebhook(deps, inv, view, attrs, object, oldObject);
      return undefined;
    } catch (e) {
      return { error: e };
    }
  }));
  const failed = outcomes.find((o) => o !== undefined);
  if (failed) throw failed.error;
}
