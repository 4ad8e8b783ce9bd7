/**
 * CloneSet defaulting (docs/design/webhooks.md §8) on the v1beta1 hub: the spec defaults of defaultCloneSet
 * (the v1alpha1 defaults convert to the same hub values), then pod-template and claim-template
 * defaults on create or when the template changed.
 */
import type { KObject } from '../../api/meta.js';
import { defaultCloneSet, type CloneSet } from '../../api/kruise/workloads/index.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { defaultClaimTemplates, defaultKruisePodTemplate } from '../common/pod-template.js';
import { wantsTemplateDefaults } from '../common/template-defaults.js';
import { child } from '../../machinery/json.js';

const templateOf = (obj: unknown): unknown => child(obj, 'spec')?.template;

export function defaultCloneSetObject(input: AdmissionInput): KObject {
  if (!input.object) throw new Error('CloneSet defaulting needs an object');
  const out = defaultCloneSet(input.object as unknown as CloneSet) as unknown as KObject;
  if (wantsTemplateDefaults(input, templateOf)) {
    const spec = child(out, 'spec');
    defaultKruisePodTemplate(spec?.template, input.gate);
    defaultClaimTemplates(spec?.volumeClaimTemplates);
  }
  return out;
}
