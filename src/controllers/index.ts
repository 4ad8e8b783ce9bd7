/**
 * The Kruise controllers the manager runs, each behind its feature gate or precondition
 * (docs/design/manager.md §4). Workload controllers register here as they land.
 */
import type { Manager } from '../runtime/manager.js';
import { setupCloneSetController } from './cloneset/index.js';
import { setupContainerRecreateRequestController } from './containerrecreaterequest/index.js';
import { setupAdvancedDaemonSetController } from './daemonset/index.js';
import { setupAdvancedStatefulSetController } from './statefulset/index.js';
import { setupPodReadinessController } from './podreadiness/index.js';
import { setupNodePodProbeController } from './nodepodprobe/index.js';
import { setupPodProbeMarkerController } from './podprobemarker/index.js';
import { setupNodeImageController } from './nodeimage/index.js';
import { setupImagePullJobController } from './imagepulljob/index.js';
import { setupImageListPullJobController } from './imagelistpulljob/index.js';
import { setupDaemonSetImagePreDownloadController, setupImagePreDownloadController, setupStatefulSetImagePreDownloadController } from './imagepredownload/index.js';
import { setupWorkloadSpreadController } from './workloadspread/index.js';
import { setupUnitedDeploymentController } from './uniteddeployment/index.js';
import { setupBroadcastJobController } from './broadcastjob/index.js';
import { setupAdvancedCronJobController } from './advancedcronjob/index.js';
import { setupEphemeralJobController } from './ephemeraljob/index.js';
import { setupPodUnavailableBudgetController } from './podunavailablebudget/index.js';
import { setupResourceDistributionController } from './resourcedistribution/index.js';
import { setupPersistentPodStateController } from './persistentpodstate/index.js';
import { setupSidecarSetController } from './sidecarset/index.js';
import { setupContainerLaunchPriorityController } from './containerlaunchpriority/index.js';
import { setupSidecarTerminatorController } from './sidecarterminator/index.js';

export interface ControllerRegistration {
  name: string;
  /** Runs only when this predicate over the enabled gates holds. */
  enabled(gate: (name: string) => boolean): boolean;
  setup(manager: Manager, gate: (name: string) => boolean): void;
}

export const kruiseControllers: ControllerRegistration[] = [
  { name: 'pod-readiness-controller', enabled: () => true, setup: (m) => { setupPodReadinessController(m); } },
  { name: 'cloneset-controller', enabled: () => true, setup: (m, gate) => { setupCloneSetController(m, { gates: gate }); } },
  { name: 'statefulset-controller', enabled: () => true, setup: (m, gate) => { setupAdvancedStatefulSetController(m, { gates: gate }); } },
  { name: 'daemonset-controller', enabled: () => true, setup: (m, gate) => { setupAdvancedDaemonSetController(m, { gates: gate }); } },
  { name: 'containerrecreaterequest-controller', enabled: (gate) => gate('KruiseDaemon'), setup: (m) => { setupContainerRecreateRequestController(m); } },
  { name: 'podprobemarker-controller', enabled: (gate) => gate('PodProbeMarkerGate') && gate('KruiseDaemon'), setup: (m, gate) => { setupPodProbeMarkerController(m, { gate }); } },
  { name: 'nodepodprobe-controller', enabled: (gate) => gate('PodProbeMarkerGate') && gate('KruiseDaemon'), setup: (m) => { setupNodePodProbeController(m); } },
  { name: 'nodeimage-controller', enabled: (g) => g('KruiseDaemon'), setup: (m) => { setupNodeImageController(m); } },
  { name: 'imagepulljob-controller', enabled: (g) => g('ImagePullJobGate'), setup: (m) => { setupImagePullJobController(m); } },
  { name: 'imagelistpulljob-controller', enabled: (g) => g('ImagePullJobGate'), setup: (m) => { setupImageListPullJobController(m); } },
  { name: 'uniteddeployment-controller', enabled: () => true, setup: (m) => { setupUnitedDeploymentController(m); } },
  { name: 'workloadspread-controller', enabled: (g) => g('WorkloadSpread'), setup: (m) => { setupWorkloadSpreadController(m); } },
  { name: 'broadcastjob-controller', enabled: () => true, setup: (m) => { setupBroadcastJobController(m); } },
  { name: 'advancedcronjob-controller', enabled: () => true, setup: (m) => { setupAdvancedCronJobController(m); } },
  { name: 'ephemeraljob-controller', enabled: () => true, setup: (m) => { setupEphemeralJobController(m); } },
  { name: 'sidecarset-controller', enabled: () => true, setup: (m) => { setupSidecarSetController(m); } },
  { name: 'containerlaunchpriority-controller', enabled: () => true, setup: (m) => { setupContainerLaunchPriorityController(m); } },
  { name: 'sidecarterminator-controller', enabled: (g) => g('SidecarTerminator') && g('KruiseDaemon'), setup: (m) => { setupSidecarTerminatorController(m); } },
  { name: 'cloneset-image-predownload', enabled: (g) => g('PreDownloadImageForInPlaceUpdate'), setup: (m) => { setupImagePreDownloadController(m); } },
  { name: 'statefulset-image-predownload', enabled: (g) => g('PreDownloadImageForInPlaceUpdate'), setup: (m) => { setupStatefulSetImagePreDownloadController(m); } },
  { name: 'daemonset-image-predownload', enabled: (g) => g('PreDownloadImageForDaemonSetUpdate'), setup: (m) => { setupDaemonSetImagePreDownloadController(m); } },
  { name: 'podunavailablebudget-controller', enabled: (g) => g('PodUnavailableBudgetDeleteGate') || g('PodUnavailableBudgetUpdateGate'), setup: (m) => { setupPodUnavailableBudgetController(m); } },
  { name: 'resourcedistribution-controller', enabled: (g) => g('ResourceDistributionGate'), setup: (m) => { setupResourceDistributionController(m); } },
  { name: 'persistentpodstate-controller', enabled: () => true, setup: (m) => { setupPersistentPodStateController(m); } },
];

/** Registers every enabled controller; returns the names of those registered. */
export function setupKruiseControllers(manager: Manager, gate: (name: string) => boolean): string[] {
  const enabled = kruiseControllers.filter((c) => c.enabled(gate));
  for (const c of enabled) c.setup(manager, gate);
  return enabled.map((c) => c.name);
}
