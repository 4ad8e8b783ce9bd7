/** The controller-manager pieces of the embedded cluster, registered explicitly (no import side effects). */
import type { Manager } from '../../runtime/manager.js';
import { setupReplicaSetController } from './replicaset/index.js';
import { setupDeploymentController } from './deployment/index.js';
import { setupStatefulSetController } from './statefulset/index.js';
import { setupDaemonSetController } from './daemonset/index.js';
import { setupJobController } from './job/index.js';
import { setupCronJobController } from './cronjob/index.js';
import { setupNodeLifecycleController } from './nodelifecycle/index.js';
import { setupPodGCController } from './podgc/index.js';
import { setupServiceAccountController } from './serviceaccount/index.js';
import { setupRootCAPublisher } from './rootcapublisher/index.js';
import { setupVolumeControllers } from './volume/index.js';
import { setupHpaController, type HpaOptions } from './hpa/index.js';

export interface CoreControllerOptions {
  /** The cluster CA (PEM) to publish as `kube-root-ca.crt` in every namespace; no publisher without it. */
  rootCaPem?: string;
  /** HorizontalPodAutoscaler sync period and default downscale window (tests shorten them). */
  hpa?: HpaOptions;
}

const coreControllers: { name: string; setup: (manager: Manager, o: CoreControllerOptions) => unknown }[] = [
  { name: 'replicaset', setup: (m) => setupReplicaSetController(m) },
  { name: 'deployment', setup: (m) => setupDeploymentController(m) },
  { name: 'statefulset', setup: (m) => setupStatefulSetController(m) },
  { name: 'daemonset', setup: (m) => setupDaemonSetController(m) },
  { name: 'job', setup: (m) => setupJobController(m) },
  { name: 'cronjob', setup: (m) => setupCronJobController(m) },
  { name: 'nodelifecycle', setup: (m) => setupNodeLifecycleController(m) },
  { name: 'podgc', setup: (m) => setupPodGCController(m) },
  { name: 'serviceaccount', setup: (m) => setupServiceAccountController(m) },
  { name: 'root-ca-cert-publisher', setup: (m, o) => o.rootCaPem && setupRootCAPublisher(m, o.rootCaPem) },
  { name: 'volume', setup: (m) => setupVolumeControllers(m) },
  { name: 'horizontal-pod-autoscaler', setup: (m, o) => setupHpaController(m, o.hpa) },
];

export function setupCoreControllers(manager: Manager, options: CoreControllerOptions = {}): void {
  for (const c of coreControllers) c.setup(manager, options);
}
