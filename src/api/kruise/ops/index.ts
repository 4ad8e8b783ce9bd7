/**
 * The Kruise kinds other than the workloads: jobs, sidecars, enhanced operations, multi-domain
 * distribution and application protection. Each file declares one kind; this list registers them.
 */
import type { KindDefinition } from '../define-kind.js';
import { advancedCronJobKind } from './advancedcronjob.js';
import { broadcastJobKind } from './broadcastjob.js';
import { containerRecreateRequestKind } from './containerrecreaterequest.js';
import { ephemeralJobKind } from './ephemeraljob.js';
import { imageListPullJobKind } from './imagelistpulljob.js';
import { imagePullJobKind } from './imagepulljob.js';
import { nodeImageKind } from './nodeimage.js';
import { nodePodProbeKind } from './nodepodprobe.js';
import { persistentPodStateKind } from './persistentpodstate.js';
import { podProbeMarkerKind } from './podprobemarker.js';
import { podUnavailableBudgetKind } from './podunavailablebudget.js';
import { resourceDistributionKind } from './resourcedistribution.js';
import { sidecarSetKind } from './sidecarset.js';

export const opsKinds: KindDefinition[] = [
  broadcastJobKind,
  advancedCronJobKind,
  sidecarSetKind,
  containerRecreateRequestKind,
  imagePullJobKind,
  imageListPullJobKind,
  nodeImageKind,
  resourceDistributionKind,
  podProbeMarkerKind,
  nodePodProbeKind,
  persistentPodStateKind,
  ephemeralJobKind,
  podUnavailableBudgetKind,
];

export * from './advancedcronjob.js';
export * from './broadcastjob.js';
export * from './containerrecreaterequest.js';
export * from './defaults.js';
export * from './ephemeraljob.js';
export * from './imagelistpulljob.js';
export * from './imagepulljob.js';
export * from './nodeimage.js';
export * from './nodepodprobe.js';
export * from './persistentpodstate.js';
export * from './podprobemarker.js';
export * from './podunavailablebudget.js';
export * from './resourcedistribution.js';
export * from './sidecarset.js';
