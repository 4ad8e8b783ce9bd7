/**
 * Mutating webhooks, called one after another, each seeing the previous ones' patches. A webhook
 * with reinvocationPolicy IfNeeded is called once more, after the pass, when a webhook called
 * after it changed the object (kube's reinvocation; changes in that second round trigger nothing).
 */
import type { KObject } from '../../api/meta.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { applyJsonPatch } from '../../machinery/patch/json-patch.js';
import type { AdmissionAttributes } from '../registry/context.js';
import { applySchemaDefaults } from '../registry/validate.js';
import type { Webhook } from './webhook-config.js';
import { callWebhook, type DispatchDeps } from './call.js';
import { fromInvocationVersion, requestView, toInvocationVersion } from './request-view.js';
import type { Invocation, RequestView } from './matching.js';

function decodePatch(patch: string): unknown {
  try {
    return JSON.parse(Buffer.from(patch, 'base64').toString('utf8'));
  } catch (e) {
    throw errors.internal((e as Error).message);
  }
}

function applyPatch(obj: KObject, patch: string): KObject {
  try {
    return applyJsonPatch(obj, decodePatch(patch)) as KObject;
  } catch (e) {
    throw e instanceof StatusError && e.code === 500 ? e : errors.internal((e as Error).message);
  }
}

/**
 * Calls the webhook of `inv` (it matched `view`); resolves with the (possibly) patched object and
 * whether it changed, or undefined when it failed open.
 */
async function invoke(deps: DispatchDeps, inv: Invocation, view: RequestView, attrs: AdmissionAttributes, current: KObject | undefined): Promise<{ object: KObject | undefined; changed: boolean } | undefined> {
  const { hook } = inv;
  const object = await toInvocationVersion(inv, view, view.object);
  const oldObject = await toInvocationVersion(inv, view, view.oldObject);
  const response = await callWebhook(deps, inv, view, attrs, object, oldObject);
  if (!response) return undefined;
  if (response.patch && !object) {
    // As kube-apiserver: a patch on an operation without an object (DELETE) is an error, whatever the failure policy.
    throw errors.internal(`admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`);
  }
  if (!response.patch || !object || !current) return { object: current, changed: false };
  const patched = applyPatch(object, response.patch);
  if (deepEqual(object, patched)) return { object: current, changed: false };
  // Custom resources are defaulted again after a patch, with the webhook version's schema.
  if (inv.resource.schemaIsAuthoritative && !view.subresource) applySchemaDefaults(inv.resource, patched);
  return { object: await fromInvocationVersion(inv, view, attrs, current, patched), changed: true };
}

export async function runMutatingWebhooks(deps: DispatchDeps, hooks: readonly Webhook[], attrs: AdmissionAttributes): Promise<KObject | undefined> {
  let object = attrs.object;
  // Matched without waiting: most writes reach none of the webhooks, and the view changes only with a patch.
  let view = requestView(attrs, object);
  const call = async (inv: Invocation) => {
    const result = await invoke(deps, inv, view, attrs, object);
    if (result && result.object !== object) {
      object = result.object;
      view = requestView(attrs, object);
    }
    return result;
  };
  const reinvocable = new Set<string>();
  const reinvoke = new Set<string>();
  for (const hook of hooks) {
    const inv = deps.matcher.match(hook, view);
    const result = inv && await call(inv);
    if (!result) continue;
    if (result.changed) for (const id of reinvocable) reinvoke.add(id);
    if (hook.reinvokeIfNeeded) reinvocable.add(hook.id);
  }
  if (reinvoke.size === 0) return object;
  for (const hook of hooks) {
    const inv = reinvoke.has(hook.id) ? deps.matcher.match(hook, view) : undefined;
    if (inv) await call(inv);
  }
  return object;
}
