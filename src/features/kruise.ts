/** OpenKruise's feature gates with their defaults, stages and dependency rules (manager and daemon alike). */
import { FeatureGates, type GateCatalogue } from './gates.js';

const beta = (on: boolean) => ({ default: on, stage: 'Beta' as const });
const alpha = (on = false) => ({ default: on, stage: 'Alpha' as const });

export const kruiseGates: GateCatalogue = {
  PodWebhook: beta(true), KruiseDaemon: beta(true), DaemonWatchingPod: beta(true), CloneSetShortHash: alpha(),
  KruisePodReadinessGate: alpha(), PreDownloadImageForInPlaceUpdate: alpha(), CloneSetPartitionRollback: alpha(),
  ResourcesDeletionProtection: beta(false), WorkloadSpread: beta(true), PodUnavailableBudgetDeleteGate: beta(true),
  PodUnavailableBudgetUpdateGate: alpha(), TemplateNoDefaults: alpha(), InPlaceUpdateEnvFromMetadata: beta(true),
  StatefulSetAutoDeletePVC: beta(true), SidecarSetPatchPodMetadataDefaultsAllowed: alpha(), SidecarTerminator: alpha(),
  PodProbeMarkerGate: beta(true), PreDownloadImageForDaemonSetUpdate: alpha(), CloneSetEventHandlerOptimization: alpha(),
  PreparingUpdateAsUpdate: alpha(), ImagePullJobGate: alpha(), ResourceDistributionGate: beta(false),
  DeletionProtectionForCRDCascadingGate: alpha(), EnhancedLivenessProbe: alpha(), RecreatePodWhenChangeVCTInCloneSetGate: alpha(),
  StatefulSetStartOrdinal: alpha(), PodIndexLabel: beta(true), EnableExternalCerts: alpha(), StatefulSetAutoResizePVCGate: alpha(),
  ForceDeleteTimeoutExpectationGate: alpha(), InPlaceWorkloadVerticalScaling: alpha(), EnablePodProbeMarkerOnServerless: alpha(),
  EnableSortSidecarContainerByName: alpha(), InPlacePodVerticalScaling: alpha(), DefaultHostNetworkHostPortsInPodTemplates: alpha(),
  DaemonSetPruneIneligibleNodes: alpha(),
};

const off = (g: Map<string, boolean>, names: string[]) => names.forEach((n) => g.set(n, false));

const dependencyRules = [
  (g: Map<string, boolean>) => {
    if (!g.get('PodWebhook')) off(g, ['KruisePodReadinessGate', 'PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate', 'WorkloadSpread', 'SidecarSetPatchPodMetadataDefaultsAllowed', 'EnhancedLivenessProbe', 'EnablePodProbeMarkerOnServerless']);
  },
  (g: Map<string, boolean>) => {
    if (!g.get('KruiseDaemon')) off(g, ['PreDownloadImageForInPlaceUpdate', 'DaemonWatchingPod', 'InPlaceUpdateEnvFromMetadata', 'PreDownloadImageForDaemonSetUpdate', 'PodProbeMarkerGate', 'SidecarTerminator', 'ImagePullJobGate', 'EnhancedLivenessProbe']);
  },
  (g: Map<string, boolean>) => {
    if (g.get('PreDownloadImageForInPlaceUpdate') || g.get('PreDownloadImageForDaemonSetUpdate')) g.set('ImagePullJobGate', true);
  },
  (g: Map<string, boolean>) => {
    if (!g.get('ResourcesDeletionProtection')) g.set('DeletionProtectionForCRDCascadingGate', false);
  },
];

/** Gates OpenKruise's docs ask users to turn on to try a feature; `kruise up` enables them unless told otherwise. */
export const tryItOutGates = { ResourcesDeletionProtection: true, ResourceDistributionGate: true, ImagePullJobGate: true };

export function kruiseFeatureGates(flag = '', overrides: Record<string, boolean> = {}): FeatureGates {
  return FeatureGates.parse(kruiseGates, flag, overrides, dependencyRules);
}
