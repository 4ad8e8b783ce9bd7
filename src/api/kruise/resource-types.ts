/**
 * Each Kruise kind as the ResourceType clients address, at its storage version (the shape the
 * controllers work on), derived from the kind definitions so names never drift from the CRDs.
 */
import type { ResourceType } from '../resource-type.js';
import type { KindDefinition } from './define-kind.js';
import { advancedCronJobKind } from './ops/advancedcronjob.js';
import { broadcastJobKind } from './ops/broadcastjob.js';
import { containerRecreateRequestKind } from './ops/containerrecreaterequest.js';
import { ephemeralJobKind } from './ops/ephemeraljob.js';
import { imageListPullJobKind } from './ops/imagelistpulljob.js';
import { imagePullJobKind } from './ops/imagepulljob.js';
import { nodeImageKind } from './ops/nodeimage.js';
import { nodePodProbeKind } from './ops/nodepodprobe.js';
import { persistentPodStateKind } from './ops/persistentpodstate.js';
import { podProbeMarkerKind } from './ops/podprobemarker.js';
import { podUnavailableBudgetKind } from './ops/podunavailablebudget.js';
import { resourceDistributionKind } from './ops/resourcedistribution.js';
import { sidecarSetKind } from './ops/sidecarset.js';
import { cloneSetKind } from './workloads/cloneset.js';
import { daemonSetKind } from './workloads/daemonset.js';
import { statefulSetKind } from './workloads/statefulset.js';
import { unitedDeploymentKind } from './workloads/united-deployment.js';
import { workloadSpreadKind } from './workloads/workload-spread.js';

/** The ResourceType of `def` at `version` (default: its storage version). */
export function kruiseResourceType(def: KindDefinition, version?: string): ResourceType {
  const v = version ?? def.versions.find((x) => x.storage)!.name;
  return { group: def.group, version: v, resource: def.plural, kind: def.kind, namespaced: def.scope === 'Namespaced' };
}

export const CloneSets = kruiseResourceType(cloneSetKind);
export const AdvancedStatefulSets = kruiseResourceType(statefulSetKind);
export const AdvancedDaemonSets = kruiseResourceType(daemonSetKind);
export const UnitedDeployments = kruiseResourceType(unitedDeploymentKind);
export const WorkloadSpreads = kruiseResourceType(workloadSpreadKind);
export const BroadcastJobs = kruiseResourceType(broadcastJobKind);
export const AdvancedCronJobs = kruiseResourceType(advancedCronJobKind);
export const SidecarSets = kruiseResourceType(sidecarSetKind);
export const ContainerRecreateRequests = kruiseResourceType(containerRecreateRequestKind);
export const EphemeralJobs = kruiseResourceType(ephemeralJobKind);
export const ImagePullJobs = kruiseResourceType(imagePullJobKind);
export const ImageListPullJobs = kruiseResourceType(imageListPullJobKind);
export const NodeImages = kruiseResourceType(nodeImageKind);
export const NodePodProbes = kruiseResourceType(nodePodProbeKind);
export const PodProbeMarkers = kruiseResourceType(podProbeMarkerKind);
export const PersistentPodStates = kruiseResourceType(persistentPodStateKind);
export const PodUnavailableBudgets = kruiseResourceType(podUnavailableBudgetKind);
export const ResourceDistributions = kruiseResourceType(resourceDistributionKind);
