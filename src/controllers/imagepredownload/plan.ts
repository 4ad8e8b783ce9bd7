/**
 * Which images a workload's new revision should pre-download, and the ImagePullJobs that do it
 * (docs/design/image-pulling.md §10). Pure.
 */
import type { ControllerRevision } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { apiVersionOfType } from '../../api/resource-type.js';
import { ControllerRevisionHashKey, ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import { newControllerRef } from '../../control/ownership/index.js';
import { templateOfRevision } from '../../control/revision/index.js';
import type { PreDownloadTarget } from './targets.js';

/** Revision labels: jobs were created for it, or it needs none. */
export const PreDownloadCreatedLabel = 'apps.kruise.io/pre-predownload-created';
export const PreDownloadIgnoredLabel = 'apps.kruise.io/image-predownload-ignored';

/** Container name → new image, for containers whose image differs from any old revision's or that are new. */
export function changedImages(old: readonly ControllerRevision[], update: ControllerRevision): Map<string, string> {
  const before = old.map((r) => new Map((templateOfRevision(r)?.spec?.containers ?? []).map((c) => [c.name, c.image])));
  const out = new Map<string, string>();
  for (const c of templateOfRevision(update)?.spec?.containers ?? []) {
    if (!c.image) continue;
    const seen = before.filter((m) => m.has(c.name));
    if (seen.length === 0 || seen.some((m) => m.get(c.name) !== c.image)) out.set(c.name, c.image);
  }
  return out;
}

/** The job pulling `image` for `container` on the nodes of the pods not yet at the update revision. */
export function preDownloadJob<T extends KObject>(target: PreDownloadTarget<T>, owner: T, update: ControllerRevision, container: string, image: string): ImagePullJobObject {
  const hash = update.metadata.labels?.[ControllerRevisionHashKey] ?? '';
  const { template, selector: ownerSelector, parallelism, timeoutSeconds } = target.job(owner);
  const labels = { ...template.metadata?.labels, [ControllerRevisionHashKey]: hash };
  const selector = structuredClone(ownerSelector);
  selector.matchExpressions = [...(selector.matchExpressions ?? []), { key: ControllerRevisionHashLabel, operator: 'NotIn', values: [update.metadata.name!, hash] }];
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob',
    metadata: { name: `${update.metadata.name}-${container}`, namespace: owner.metadata.namespace, labels, ownerReferences: [newControllerRef(owner, apiVersionOfType(target.resource), target.resource.kind)] },
    spec: {
      image, podSelector: selector, parallelism,
      pullSecrets: template.spec?.imagePullSecrets?.map((s) => s.name!).filter(Boolean),
      pullPolicy: { backoffLimit: 1, timeoutSeconds },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      sandboxConfig: { labels, annotations: template.metadata?.annotations },
    },
  };
}
