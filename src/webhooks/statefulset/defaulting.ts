/**
 * Advanced StatefulSet defaulting (docs/design/webhooks.md §9) on the v1beta1 hub. A v1alpha1 request only
 * gets the fields v1alpha1 has (upstream converts, defaults and converts back), template and claim
 * defaults on create or template change, and a cleared status on create.
 */
import type { KObject } from '../../api/meta.js';
import {
  defaultStatefulSet, defaultStatefulSetV1alpha1, type StatefulSet, type StatefulSetV1alpha1,
} from '../../api/kruise/workloads/index.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { defaultClaimTemplates, defaultKruisePodTemplate } from '../common/pod-template.js';
import { wantsTemplateDefaults } from '../common/template-defaults.js';
import { child } from '../../machinery/json.js';

export const StatefulSetAutoDeletePVCGate = 'StatefulSetAutoDeletePVC';
export const StatefulSetAutoResizePVCGate = 'StatefulSetAutoResizePVCGate';

const templateOf = (obj: unknown): unknown => child(obj, 'spec')?.template;

export function defaultStatefulSetObject(input: AdmissionInput): KObject {
  if (!input.object) throw new Error('StatefulSet defaulting needs an object');
  const out = (input.version === 'v1alpha1'
    ? defaultStatefulSetV1alpha1(input.object as unknown as StatefulSetV1alpha1)
    : defaultStatefulSet(input.object as unknown as StatefulSet, {
      StatefulSetAutoDeletePVC: input.gate(StatefulSetAutoDeletePVCGate),
      StatefulSetAutoResizePVCGate: input.gate(StatefulSetAutoResizePVCGate),
    })) as unknown as KObject;
  if (wantsTemplateDefaults(input, templateOf)) {
    const spec = child(out, 'spec');
    defaultKruisePodTemplate(spec?.template, input.gate);
    defaultClaimTemplates(spec?.volumeClaimTemplates);
  }
  if (input.request.operation === 'CREATE') delete out.status;
  return out;
}
