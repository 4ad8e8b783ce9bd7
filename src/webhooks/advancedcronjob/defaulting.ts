/**
 * AdvancedCronJob defaulting (madvancedcronjob.kb.io): concurrency, paused and history limits,
 * ImageListPullJob template defaults when its completion type is empty, Kruise pod defaults on
 * the Job/BroadcastJob pod template (create or template change, unless TemplateNoDefaults);
 * status cleared.
 */
import type { KObject } from '../../api/meta.js';
import { defaultAdvancedCronJob, type AdvancedCronJob } from '../../api/kruise/ops/index.js';
import { child } from '../../machinery/json.js';
import { defaultKruisePodTemplate } from '../common/pod-template.js';
import { wantsTemplateDefaults } from '../common/template-defaults.js';
import type { AdmissionInput } from '../kind-webhook.js';

const acjTemplate = (o: unknown): unknown => child(child(o, 'spec'), 'template');

export function defaultAdvancedCronJobRequest(input: AdmissionInput): KObject {
  const obj = input.object;
  if (!obj || input.request.subResource) return obj as KObject;
  const out = defaultAdvancedCronJob(obj as AdvancedCronJob);
  const template = out.spec?.template;
  if (template && wantsTemplateDefaults(input, acjTemplate)) {
    defaultKruisePodTemplate(child(template.jobTemplate, 'spec')?.template, input.gate);
    defaultKruisePodTemplate(template.broadcastJobTemplate?.spec?.template, input.gate);
  }
  delete out.status;
  return out as KObject;
}
