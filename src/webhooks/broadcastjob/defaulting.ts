/**
 * BroadcastJob defaulting (mbroadcastjob.kb.io): completionPolicy Always, parallelism
 * 2147483647, failurePolicy FailFast; Kruise pod defaults on the template at create, or at
 * update when the template changed, unless TemplateNoDefaults; status cleared.
 */
import type { KObject } from '../../api/meta.js';
import { defaultBroadcastJob, type BroadcastJob } from '../../api/kruise/ops/index.js';
import { child } from '../../machinery/json.js';
import { defaultKruisePodTemplate } from '../common/pod-template.js';
import { wantsTemplateDefaults } from '../common/template-defaults.js';
import type { AdmissionInput } from '../kind-webhook.js';

const bcjTemplate = (o: unknown): unknown => child(o, 'spec')?.template;

export function defaultBroadcastJobRequest(input: AdmissionInput): KObject {
  const obj = input.object;
  if (!obj || input.request.subResource) return obj as KObject;
  const out = defaultBroadcastJob(obj as BroadcastJob);
  if (wantsTemplateDefaults(input, bcjTemplate)) defaultKruisePodTemplate(out.spec?.template, input.gate);
  delete out.status;
  return out as KObject;
}
