/**
 * The admission logic of every kind, keyed by the `handler` of the webhook inventory
 * (src/api/kruise/webhook-inventory.ts): the Kruise kinds, `Pod` (mpod; vpod and vpodeviction
 * have no validate yet, so they are not served) and the deletion-protection handlers. A key
 * without an entry (or without the hook an entry needs) is not served, so the configuration
 * controller prunes its webhooks (docs/design/webhooks.md §5).
 */
import type { KindWebhooks } from './kind-webhook.js';
import { cloneSetWebhooks } from './cloneset/index.js';
import { statefulSetWebhooks } from './statefulset/index.js';
import { daemonSetWebhooks } from './daemonset/index.js';
import { unitedDeploymentWebhooks } from './uniteddeployment/index.js';
import { createWorkloadSpreadWebhooks } from './workloadspread/index.js';
import { broadcastJobWebhooks } from './broadcastjob/index.js';
import { advancedCronJobWebhooks } from './advancedcronjob/index.js';
import { createSidecarSetWebhooks } from './sidecarset/index.js';
import { containerRecreateRequestWebhooks } from './containerrecreaterequest/index.js';
import { ephemeralJobWebhooks } from './ephemeraljob/index.js';
import { podProbeMarkerWebhooks } from './podprobemarker/index.js';
import { imagePullJobWebhooks } from './imagepulljob/index.js';
import { imageListPullJobWebhooks } from './imagelistpulljob/index.js';
import { nodeImageWebhooks } from './nodeimage/index.js';
import { createResourceDistributionWebhooks } from './resourcedistribution/index.js';
import { podUnavailableBudgetWebhooks } from './podunavailablebudget/index.js';
import { createPersistentPodStateWebhooks } from './persistentpodstate/index.js';
import { podWebhooks } from './pod/index.js';
import {
  crdProtectionWebhooks, deploymentProtectionWebhooks, ingressProtectionWebhooks, namespaceProtectionWebhooks,
  replicaSetProtectionWebhooks, serviceProtectionWebhooks, statefulSetProtectionWebhooks,
} from './protection/index.js';

/** Handlers by inventory key; `kruiseNamespace` is where kruise-configuration and dry-runs live. */
export function kruiseKindWebhooks(kruiseNamespace: string): Record<string, KindWebhooks> {
  return {
    CloneSet: cloneSetWebhooks,
    StatefulSet: statefulSetWebhooks,
    DaemonSet: daemonSetWebhooks,
    UnitedDeployment: unitedDeploymentWebhooks,
    WorkloadSpread: createWorkloadSpreadWebhooks({ kruiseNamespace }),
    BroadcastJob: broadcastJobWebhooks,
    AdvancedCronJob: advancedCronJobWebhooks,
    SidecarSet: createSidecarSetWebhooks({ kruiseNamespace }),
    ContainerRecreateRequest: containerRecreateRequestWebhooks,
    EphemeralJob: ephemeralJobWebhooks,
    PodProbeMarker: podProbeMarkerWebhooks,
    ImagePullJob: imagePullJobWebhooks,
    ImageListPullJob: imageListPullJobWebhooks,
    NodeImage: nodeImageWebhooks,
    ResourceDistribution: createResourceDistributionWebhooks({ kruiseNamespace }),
    PodUnavailableBudget: podUnavailableBudgetWebhooks,
    PersistentPodState: createPersistentPodStateWebhooks({ kruiseNamespace }),
    Pod: podWebhooks,
    Deployment: deploymentProtectionWebhooks,
    ReplicaSet: replicaSetProtectionWebhooks,
    BuiltinStatefulSet: statefulSetProtectionWebhooks,
    Namespace: namespaceProtectionWebhooks,
    CustomResourceDefinition: crdProtectionWebhooks,
    Service: serviceProtectionWebhooks,
    Ingress: ingressProtectionWebhooks,
  };
}
