/**
 * WorkloadSpread v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). v1beta1 renames the subset
 * node selectors (`requiredNodeSelectorTerm` → `requiredNodeSelector`, `preferredNodeSelectorTerms`
 * → `preferredNodeSelector`) and types subset conditions as metav1.Condition, whose reason and
 * message are required: a missing reason becomes `Unknown`, a missing message "". Back in v1alpha1
 * an empty message is omitted (as Go does) and observedGeneration, which it lacks, is dropped.
 */
import type { KObject } from '../../meta.js';
import { child, children, isObj, rename, specOf, statusOf, type KindConversion, type Obj } from './helpers.js';

const renames: [alpha: string, beta: string][] = [
  ['requiredNodeSelectorTerm', 'requiredNodeSelector'],
  ['preferredNodeSelectorTerms', 'preferredNodeSelector'],
];

/** Every subset status: `status.subsetStatuses[]` and each list of `status.versionedSubsetStatuses`. */
function subsetStatuses(obj: KObject): Obj[] {
  const status = statusOf(obj);
  const versioned = Object.values(child(status, 'versionedSubsetStatuses') ?? {});
  return [
    ...children(status, 'subsetStatuses'),
    ...versioned.flatMap((list) => (Array.isArray(list) ? list.filter(isObj) : [])),
  ];
}

function conditionsOf(obj: KObject): Obj[] {
  return subsetStatuses(obj).flatMap((s) => children(s, 'conditions'));
}

export const workloadSpreadConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'WorkloadSpread',
  spokes: {
    v1alpha1: {
      toHub(obj) {
        for (const subset of children(specOf(obj), 'subsets')) for (const [a, b] of renames) rename(subset, a, b);
        for (const c of conditionsOf(obj)) {
          if (typeof c.reason !== 'string' || c.reason === '') c.reason = 'Unknown';
          c.message ??= '';
        }
        return obj;
      },
      fromHub(obj) {
        for (const subset of children(specOf(obj), 'subsets')) for (const [a, b] of renames) rename(subset, b, a);
        for (const c of conditionsOf(obj)) {
          if (c.message === '') delete c.message;
          delete c.observedGeneration;
        }
        return obj;
      },
    },
  },
};
