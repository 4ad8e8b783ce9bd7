/**
 * UnitedDeployment defaulting (docs/design/webhooks.md §13): replicas, history, Manual updates and
 * minReplicas 0 when only min/max are used; pod and claim defaults go into a statefulSetTemplate on
 * create or when `spec.template` changed; status is cleared on create.
 */
import type { KObject } from '../../api/meta.js';
import { defaultUnitedDeployment, type UnitedDeployment } from '../../api/kruise/workloads/index.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { defaultClaimTemplates, defaultKruisePodTemplate } from '../common/pod-template.js';
import { wantsTemplateDefaults } from '../common/template-defaults.js';
import { child } from '../../machinery/json.js';

const templateOf = (obj: unknown): unknown => child(obj, 'spec')?.template;

export function defaultUnitedDeploymentObject(input: AdmissionInput): KObject {
  if (!input.object) throw new Error('UnitedDeployment defaulting needs an object');
  const out = defaultUnitedDeployment(input.object as unknown as UnitedDeployment) as unknown as KObject;
  const stsSpec = child(child(templateOf(out), 'statefulSetTemplate'), 'spec');
  if (stsSpec && wantsTemplateDefaults(input, templateOf)) {
    defaultKruisePodTemplate(stsSpec.template, input.gate);
    defaultClaimTemplates(stsSpec.volumeClaimTemplates);
  }
  if (input.request.operation === 'CREATE') delete out.status;
  return out;
}
