/**
 * Which NodeImages an ImagePullJob pulls on (docs/design/image-pulling.md §4.1): the nodes of its
 * active, scheduled pods matching `podSelector`; the named nodes that exist; the NodeImages
 * matching the label selector; or all of them. Sorted by name, so parallelism picks nodes in a
 * stable order.
 */
import type { Pod } from '../../api/core/index.js';
import type { ImagePullJobObject, NodeImageObject } from '../../control/imagejob/index.js';
import { isPodActive } from '../../control/podutil/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Informer } from '../../runtime/informer.js';
import { byName } from '../../machinery/order.js';

export function selectTargets(job: ImagePullJobObject, nodeImages: Informer<NodeImageObject>, pods: Informer<Pod>): NodeImageObject[] {
  const spec = job.spec;
  let targets: NodeImageObject[];
  if (spec?.podSelector) {
    const selector = selectorFromLabelSelector(spec.podSelector as MetaLabelSelector);
    const nodes = new Set(pods.byIndex('namespace', job.metadata.namespace!)
      .filter((p) => isPodActive(p) && p.spec?.nodeName && selector.matches(p.metadata.labels))
      .map((p) => p.spec!.nodeName!));
    targets = [...nodes].map((n) => nodeImages.get(undefined, n)).filter((n): n is NodeImageObject => n !== undefined);
  } else if (spec?.selector?.names) {
    targets = spec.selector.names.map((n) => nodeImages.get(undefined, n)).filter((n): n is NodeImageObject => n !== undefined);
  } else if (spec?.selector?.matchLabels || spec?.selector?.matchExpressions) {
    const selector = selectorFromLabelSelector(spec.selector as MetaLabelSelector);
    targets = nodeImages.list().filter((n) => selector.matches(n.metadata.labels));
  } else {
    targets = nodeImages.list();
  }
  return targets.filter((n) => !n.metadata.deletionTimestamp).sort(byName);
}

/** Whether the job may pull on NodeImage `name` (cheap check for event mapping; podSelector jobs always say yes). */
export function mayTarget(job: ImagePullJobObject, nodeImage: NodeImageObject): boolean {
  const sel = job.spec?.selector;
  if (sel?.names) return sel.names.includes(nodeImage.metadata.name!);
  if (sel?.matchLabels || sel?.matchExpressions) return selectorFromLabelSelector(sel as MetaLabelSelector).matches(nodeImage.metadata.labels);
  return true;
}
