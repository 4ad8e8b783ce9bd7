/**
 * AdvancedCronJob v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7): identical except that only
 * v1beta1 has `spec.template.imageListPullJobTemplate`, so such an object cannot be shown as v1alpha1.
 */
import { child, ConversionError, identityConversion, specOf, type KindConversion } from './helpers.js';

export const advancedCronJobConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'AdvancedCronJob',
  spokes: {
    v1alpha1: {
      toHub: identityConversion.toHub,
      fromHub(obj) {
        const template = child(specOf(obj), 'template');
        if (template?.imageListPullJobTemplate !== undefined && template.imageListPullJobTemplate !== null) {
          throw new ConversionError('spec.template.imageListPullJobTemplate is not supported by apps.kruise.io/v1alpha1 (use v1beta1)');
        }
        return obj;
      },
    },
  },
};
