/**
 * The SidecarSet validating handler (vsidecarset.kb.io, create and update): the object's own
 * checks and the cluster lookups first; only a SidecarSet that passes them is compared with every
 * other SidecarSet for conflicts.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { sidecarSetConflicts } from './conflicts.js';
import { SidecarSets } from '../../api/kruise/resource-types.js';
import { patchWhitelistProblem, validateCanary, validateRevision } from './lookups.js';
import { validateSidecarSetSpec, validateSidecarSetUpdate } from './validation.js';

export interface SidecarSetWebhookOptions {
  /** Where ControllerRevisions and the kruise-configuration ConfigMap live (POD_NAMESPACE upstream). */
  kruiseNamespace?: string;
}

export function sidecarSetValidator(options: SidecarSetWebhookOptions = {}) {
  const kruiseNamespace = options.kruiseNamespace ?? 'kruise-system';
  return async (input: AdmissionInput): Promise<FieldError[]> => {
    const obj = input.object;
    if (!obj || input.request.subResource) return [];
    const old = input.request.operation === 'UPDATE' ? input.oldObject : undefined;
    const errs = [
      ...await validateCanary(input.client, obj, old),
      ...validateSidecarSetSpec(obj),
      ...await validateRevision(input.client, obj, kruiseNamespace),
    ];
    const whitelist = await patchWhitelistProblem(input.client, obj, kruiseNamespace, input.gate('SidecarSetPatchPodMetadataDefaultsAllowed'));
    if (whitelist) errs.push(field.required('spec.patchPodMetadata', whitelist));
    if (old) errs.push(...validateSidecarSetUpdate(obj, old));
    if (errs.length > 0) return errs;
    const others = await input.client.list<KObject>(SidecarSets);
    return sidecarSetConflicts(obj, others.items);
  };
}
