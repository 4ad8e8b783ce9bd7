/**
 * Advanced StatefulSet v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). v1alpha1 is the v1beta1
 * shape without the newer fields, so v1alpha1 → v1beta1 copies everything and v1beta1 → v1alpha1
 * drops the fields v1alpha1 has nowhere to put (a v1alpha1 write therefore loses them too).
 * minReadySeconds lives under updateStrategy.rollingUpdate in both versions.
 */
import { identityConversion, specOf, statusOf, type KindConversion } from './helpers.js';

/** Spec fields that exist only in v1beta1. */
export const statefulSetHubOnlySpecFields = [
  'reserveOrdinals', 'lifecycle', 'scaleStrategy', 'persistentVolumeClaimRetentionPolicy', 'ordinals', 'volumeClaimUpdateStrategy',
] as const;
/** Status fields that exist only in v1beta1. */
export const statefulSetHubOnlyStatusFields = ['updatedReadyReplicas', 'updatedAvailableReplicas', 'volumeClaims'] as const;

export const statefulSetConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'StatefulSet',
  spokes: {
    v1alpha1: {
      toHub: identityConversion.toHub,
      fromHub: (obj) => {
        const spec = specOf(obj);
        const status = statusOf(obj);
        for (const f of statefulSetHubOnlySpecFields) delete spec?.[f];
        for (const f of statefulSetHubOnlyStatusFields) delete status?.[f];
        return obj;
      },
    },
  },
};
