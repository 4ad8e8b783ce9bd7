/**
 * PersistentPodState v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7): `nodeTopologyKeys` ⇄ `keys` in
 * `requiredPersistentTopology` and in each `preferredPersistentTopology[].preference`.
 */
import type { KObject } from '../../meta.js';
import { child, children, rename, specOf, type KindConversion } from './helpers.js';

function renameKeys(obj: KObject, from: string, to: string): KObject {
  const spec = specOf(obj);
  rename(child(spec, 'requiredPersistentTopology'), from, to);
  for (const term of children(spec, 'preferredPersistentTopology')) rename(child(term, 'preference'), from, to);
  return obj;
}

export const persistentPodStateConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'PersistentPodState',
  spokes: {
    v1alpha1: {
      toHub: (obj) => renameKeys(obj, 'nodeTopologyKeys', 'keys'),
      fromHub: (obj) => renameKeys(obj, 'keys', 'nodeTopologyKeys'),
    },
  },
};
