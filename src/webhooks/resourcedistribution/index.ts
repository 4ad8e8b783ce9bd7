/**
 * ResourceDistribution admission (vresourcedistribution, validating only): 403 while
 * ResourceDistributionGate is off; otherwise object meta, the embedded resource (supported kind,
 * immutable identity, accepted by a dry-run create) and the targets. Field errors deny with 422.
 */
import type { ResourceDistribution } from '../../api/kruise/ops/resourcedistribution.js';
import type { FieldError } from '../../machinery/errors.js';
import { validateObjectMeta } from '../../machinery/validation/names.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from '../kind-webhook.js';
import { dryRunResource } from './dry-run.js';
import { decodeResource, validateResourceIdentity, validateTargets, type EmbeddedResource } from './validation.js';

export { dryRunResource } from './dry-run.js';
export { SupportedKinds, decodeResource, isSupportedResource, validateResourceIdentity, validateTargets, type EmbeddedResource } from './validation.js';

export interface ResourceDistributionWebhookOptions {
  /** Namespace the dry-run create is made in (the manager's own namespace). */
  kruiseNamespace?: string;
}

async function validateResource(input: AdmissionInput, rd: ResourceDistribution, kruiseNamespace: string): Promise<FieldError[]> {
  const path = 'spec.resource';
  const decoded = decodeResource(rd.spec?.resource, path);
  if (!decoded.resource) return decoded.errors;
  const errs = [...decoded.errors];
  let old: EmbeddedResource | undefined;
  if (input.request.operation === 'UPDATE' && input.oldObject) {
    const decodedOld = decodeResource((input.oldObject as ResourceDistribution).spec?.resource, path);
    errs.push(...decodedOld.errors);
    old = decodedOld.resource;
  }
  const identity = validateResourceIdentity(decoded.resource, old, path);
  if (identity.length) return [...errs, ...identity];
  return [...errs, ...await dryRunResource(input.client, decoded.resource, kruiseNamespace, path)];
}

export function createResourceDistributionWebhooks(options: ResourceDistributionWebhookOptions = {}): KindWebhooks {
  const kruiseNamespace = options.kruiseNamespace ?? 'kruise-system';
  async function validate(input: AdmissionInput): Promise<FieldError[]> {
    if (!input.gate('ResourceDistributionGate')) throw new AdmissionDenied(403, 'feature-gate ResourceDistributionGate is not enabled');
    const rd = input.object as ResourceDistribution | undefined;
    if (!rd) throw new Error(`ResourceDistribution admission without an object (${input.request.operation})`);
    const errs = validateObjectMeta(rd.metadata, { namespaced: false, nameValidator: 'subdomain' });
    errs.push(...await validateResource(input, rd, kruiseNamespace));
    errs.push(...validateTargets(rd.spec?.targets, 'spec.targets'));
    return errs;
  }
  return { validate, invalidCode: 422 };
}

export const resourceDistributionWebhooks: KindWebhooks = createResourceDistributionWebhooks();
