/**
 * Step 4 of a CloneSet pass (docs/design/cloneset.md §6): owned pods whose labels no longer match the
 * selector lose their ownerRef (orphans are never adopted).
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { TerminalError } from '../../runtime/reconcile.js';
import type { CloneSet } from './pods.js';
import type { Pod } from '../../api/core/index.js';

/** Releases the pods the selector no longer matches; returns the rest. */
export async function releaseUnmatched(client: Client, cs: CloneSet, pods: readonly Pod[]): Promise<Pod[]> {
  let selector;
  try {
    selector = selectorFromLabelSelector(cs.spec.selector as MetaLabelSelector);
  } catch (e) {
    throw new TerminalError(`invalid selector of CloneSet ${cs.metadata.namespace}/${cs.metadata.name}`, { cause: e });
  }
  const kept: Pod[] = [];
  for (const pod of pods) {
    if (selector.matches(pod.metadata.labels)) {
      kept.push(pod);
      continue;
    }
    const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== cs.metadata.uid);
    try {
      await client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'merge', { metadata: { ownerReferences: refs, uid: pod.metadata.uid } });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  return kept;
}
