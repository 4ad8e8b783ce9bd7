/**
 * WorkloadSpread subsets (docs/design/webhooks.md §13): names, node selectors, tolerations,
 * and maxReplicas (one type for all, integers for StatefulSets, percentages summing to ≤ 100% with
 * an unbounded last subset when below 100%). Field names follow the version the client wrote.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { validateTolerations } from '../../machinery/podspec/pod-spec-validation.js';
import { has, items, str, type Json } from '../../machinery/json.js';
import { validateNodeSelectorTerm, validatePreferredSchedulingTerms } from '../common/node-selector.js';
import { scaledIntOrPercent } from '../common/strategy-validation.js';

export interface SubsetFieldNames { required: string; preferred: string }

export const subsetFieldNames = (version: string): SubsetFieldNames => (version === 'v1alpha1'
  ? { required: 'requiredNodeSelectorTerm', preferred: 'preferredNodeSelectorTerms' }
  : { required: 'requiredNodeSelector', preferred: 'preferredNodeSelector' });

export function validateSubsets(subsets: Json[], targetKind: string, names: SubsetFieldNames): FieldError[] {
  if (subsets.length === 0) return [field.required('spec.subsets', 'subsets number must >= 1 in WorkloadSpread')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  subsets.forEach((subset, i) => {
    const p = `spec.subsets[${i}]`;
    const name = str(subset, 'name');
    if (!name) errs.push(field.required(`${p}.name`));
    else if (seen.has(name)) errs.push(field.invalid(`${p}.name`, name, `duplicated subset name ${name}`));
    seen.add(name);
    errs.push(...validateNodeSelectorTerm(subset.requiredNodeSelector, `${p}.${names.required}`));
    errs.push(...validatePreferredSchedulingTerms(subset.preferredNodeSelector, `${p}.${names.preferred}`));
    errs.push(...validateTolerations(items(subset, 'tolerations'), `${p}.tolerations`));
  });
  return [...errs, ...maxReplicasErrors(subsets, targetKind)];
}

/** Stops at the first problem, as upstream does. */
function maxReplicasErrors(subsets: Json[], targetKind: string): FieldError[] {
  let firstType: string | undefined;
  let percentSum = 0;
  for (const [i, subset] of subsets.entries()) {
    if (!has(subset, 'maxReplicas')) continue;
    const value = subset.maxReplicas;
    const p = `spec.subsets[${i}].maxReplicas`;
    const type = typeof value;
    firstType ??= type;
    if (type !== firstType) return [field.invalid(p, value, 'the maxReplicas type of all subsets must be the same')];
    if (targetKind === 'StatefulSet' && type !== 'number') return [field.invalid(p, value, 'the maxReplicas type must be Int for StatefulSet')];
    const resolved = scaledIntOrPercent(value, 100, true);
    if (resolved.error !== undefined || resolved.value < 0) return [field.invalid(p, value, 'maxReplicas is not valid for subset')];
    if (type === 'string') {
      percentSum += resolved.value;
      if (percentSum > 100) return [field.invalid(p, value, "the sum of all subset's maxReplicas exceeds 100% is no permitted")];
    }
  }
  if (firstType === 'string' && percentSum < 100 && has(subsets[subsets.length - 1], 'maxReplicas')) {
    return [field.invalid('spec.subsets[0].maxReplicas', subsets[0].maxReplicas ?? null, 'maxReplicas sum of all subsets must equal 100% when type is specified as percent')];
  }
  return [];
}
