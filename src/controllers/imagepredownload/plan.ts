/**
 * Which images a CloneSet's new revision should pre-download, and the ImagePullJobs that do it
 * (docs/design/image-pulling.md §10). Pure.
 */
import type { ControllerRevision, PodTemplateSpec } from '../../api/core/index.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashKey, ControllerRevisionHashLabel, PodUpdatePolicy } from '../../api/kruise/workloads/labels.js';
import { calculateInPlaceUpdateSpec } from '../../control/inplaceupdate/index.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import { newControllerRef } from '../../control/ownership/index.js';
import { templateOfRevision } from '../../control/revision/index.js';
import { scaledValue } from '../../machinery/int-or-percent.js';

/** Revision labels: jobs were created for it, or it needs none. */
export const PreDownloadCreatedLabel = 'apps.kruise.io/pre-predownload-created';
export const PreDownloadIgnoredLabel = 'apps.kruise.io/image-predownload-ignored';
/** Workloads this small update too fast for pre-downloading to pay. */
const minimumReplicas = 3;

/** Why the revision needs no pre-download, or undefined when it does. */
export function ignoreReason(cs: CloneSet, current: ControllerRevision, update: ControllerRevision): string | undefined {
  const ru = cs.spec?.updateStrategy?.rollingUpdate;
  if ((ru?.podUpdatePolicy ?? PodUpdatePolicy.ReCreate) === PodUpdatePolicy.ReCreate) return 'update type is ReCreate';
  const replicas = cs.spec?.replicas ?? 1;
  if (replicas <= minimumReplicas) return `replicas ${replicas} not above ${minimumReplicas}`;
  const partition = scaledValue(ru?.partition ?? 0, replicas, true);
  const maxUnavailable = scaledValue(ru?.maxUnavailable ?? '20%', replicas, false);
  if (partition === 0 && maxUnavailable >= replicas) return 'all pods update in one batch';
  if (!calculateInPlaceUpdateSpec(current, update)) return 'the revision cannot update in place';
  return undefined;
}

/** Container name → new image, for containers whose image changed or that are new. */
export function changedImages(current: ControllerRevision, update: ControllerRevision): Map<string, string> {
  const before = new Map((templateOfRevision(current)?.spec?.containers ?? []).map((c) => [c.name, c.image]));
  const out = new Map<string, string>();
  for (const c of templateOfRevision(update)?.spec?.containers ?? []) {
    if (c.image && before.get(c.name) !== c.image) out.set(c.name, c.image);
  }
  return out;
}

/** The job pulling `image` for `container` on the nodes of the pods not yet at the update revision. */
export function preDownloadJob(cs: CloneSet, update: ControllerRevision, container: string, image: string): ImagePullJobObject {
  const hash = update.metadata.labels?.[ControllerRevisionHashKey] ?? '';
  const spec = cs.spec!;
  const template = spec.template as PodTemplateSpec;
  const labels = { ...template.metadata?.labels, [ControllerRevisionHashKey]: hash };
  const strategy = spec.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy;
  const selector = structuredClone(spec.selector);
  selector.matchExpressions = [...(selector.matchExpressions ?? []), { key: ControllerRevisionHashLabel, operator: 'NotIn', values: [update.metadata.name!, hash] }];
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob',
    metadata: { name: `${update.metadata.name}-${container}`, namespace: cs.metadata.namespace, labels, ownerReferences: [newControllerRef(cs, 'apps.kruise.io/v1beta1', 'CloneSet')] },
    spec: {
      image, podSelector: selector, parallelism: strategy?.imagePreDownloadParallelism ?? 1,
      pullSecrets: template.spec?.imagePullSecrets?.map((s) => s.name!).filter(Boolean),
      pullPolicy: { backoffLimit: 1, timeoutSeconds: strategy?.imagePreDownloadTimeoutSeconds ?? 300 },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      sandboxConfig: { labels, annotations: template.metadata?.annotations },
    },
  };
}
