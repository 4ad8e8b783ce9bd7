/**
 * PodUnavailableBudget admission (vpodunavailablebudget, validating only): with both PUB gates
 * off every write is refused with 400; otherwise the hub object is validated and compared with
 * the other PUBs of its namespace. Field errors deny with 400, as upstream does.
 */
import { PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import type { PodUnavailableBudget } from '../../api/kruise/ops/podunavailablebudget.js';
import type { FieldError } from '../../machinery/errors.js';
import { checkNamespacePeers } from '../common/namespace-peers.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from '../kind-webhook.js';
import { validatePubAnnotations, validatePubConflicts, validatePubSpec, validatePubUpdate } from './validation.js';

export { isSelectorLooseOverlap } from './selector-overlap.js';
export { parseGroupVersion, sameTarget, type GroupVersion, type TargetRef } from '../common/target-ref.js';
export { validatePubAnnotations, validatePubConflicts, validatePubSpec, validatePubUpdate } from './validation.js';


const gatesOffMessage = 'feature PodUnavailableBudget is invalid, please open via feature-gate(PodUnavailableBudgetDeleteGate, PodUnavailableBudgetUpdateGate)';

async function validate(input: AdmissionInput): Promise<FieldError[]> {
  if (!input.gate('PodUnavailableBudgetDeleteGate') && !input.gate('PodUnavailableBudgetUpdateGate')) {
    throw new AdmissionDenied(400, gatesOffMessage);
  }
  const pub = input.object as PodUnavailableBudget | undefined;
  if (!pub) throw new Error(`PodUnavailableBudget admission without an object (${input.request.operation})`);
  const errs = [...validatePubAnnotations(pub), ...validatePubSpec(pub)];
  if (input.request.operation === 'UPDATE' && input.oldObject) errs.push(...validatePubUpdate(pub, input.oldObject as PodUnavailableBudget));
  const conflicts = await checkNamespacePeers(input, PodUnavailableBudgets, pub,
    (others: PodUnavailableBudget[]) => validatePubConflicts(pub, others), 'query other podUnavailableBudget failed');
  return [...errs, ...conflicts];
}

export const podUnavailableBudgetWebhooks: KindWebhooks = { validate, invalidCode: 400 };
