/**
 * ResourceDistribution v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7): `targets.namespaceLabelSelector`
 * ⇄ `targets.namespaceSelector`, and each status condition's `failedNamespace` ⇄ `failedNamespaces`.
 */
import type { KObject } from '../../meta.js';
import { child, children, rename, specOf, statusOf, type KindConversion } from './helpers.js';

function renameFields(obj: KObject, toHub: boolean): KObject {
  const pairs: [string, string][] = [['namespaceLabelSelector', 'namespaceSelector'], ['failedNamespace', 'failedNamespaces']];
  const [[selFrom, selTo], [nsFrom, nsTo]] = toHub ? pairs : pairs.map(([a, b]) => [b, a] as [string, string]);
  rename(child(specOf(obj), 'targets'), selFrom, selTo);
  for (const c of children(statusOf(obj), 'conditions')) rename(c, nsFrom, nsTo);
  return obj;
}

export const resourceDistributionConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'ResourceDistribution',
  spokes: { v1alpha1: { toHub: (obj) => renameFields(obj, true), fromHub: (obj) => renameFields(obj, false) } },
};
