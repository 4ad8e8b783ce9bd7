/**
 * NodeImage v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7): v1beta1 adds `mode` to pull secret
 * references (image-level and tag-level); v1beta1 → v1alpha1 drops it.
 */
import { child, children, identityConversion, specOf, type KindConversion } from './helpers.js';

export const nodeImageConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'NodeImage',
  spokes: {
    v1alpha1: {
      toHub: identityConversion.toHub,
      fromHub(obj) {
        for (const image of Object.values(child(specOf(obj), 'images') ?? {})) {
          const refs = [...children(image, 'pullSecrets'), ...children(image, 'tags').flatMap((t) => children(t, 'pullSecrets'))];
          for (const ref of refs) delete ref.mode;
        }
        return obj;
      },
    },
  },
};
