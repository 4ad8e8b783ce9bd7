/**
 * Informer events -> scheduler state. Bound pods and nodes feed the cache; pending pods this
 * scheduler is responsible for feed the queue; changes that can make a parked pod fit release it
 * (kube-scheduler's cluster events, without per-plugin hints). Node heartbeats and our own status
 * writes change nothing the filters read, so they release nothing.
 */
import { objectKey, type KObject } from '../../api/meta.js';
import type { EventHandler } from '../../runtime/informer.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { SchedulerCache } from './cache.js';
import type { SchedulingQueue } from './scheduling-queue.js';
import { DEFAULT_SCHEDULER } from './types.js';
import type { Node, Pod } from '../../api/core/index.js';

/** Pending, ours, not being deleted, not gated. */
export function isResponsible(pod: Pod, schedulerName: string): boolean {
  const spec = pod.spec ?? {};
  return !spec.nodeName && (spec.schedulerName || DEFAULT_SCHEDULER) === schedulerName
    && !pod.metadata.deletionTimestamp && !(spec.schedulingGates?.length);
}

const isBound = (pod: Pod): boolean => Boolean(pod.spec?.nodeName);

/** What a node offers to filters and scores: heartbeats and images are left out. */
function nodeSchedulingView(node: Node): unknown {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  return [node.metadata.labels, node.spec, node.status?.allocatable, ready];
}

/** A pending pod's change that may change the decision (status, our own condition, is ignored). */
const podSpecChanged = (a: Pod, b: Pod): boolean =>
  !deepEqual(a.spec, b.spec) || !deepEqual(a.metadata.labels, b.metadata.labels) || !deepEqual(a.metadata.annotations, b.metadata.annotations);

export function podHandler(cache: SchedulerCache, queue: SchedulingQueue, schedulerName: string): EventHandler<Pod> {
  return {
    onAdd(pod) {
      if (isBound(pod)) {
        cache.setPod(pod);
        queue.moveParked(true);
      } else if (isResponsible(pod, schedulerName)) queue.add(objectKey(pod));
    },
    onUpdate(old, pod) {
      const key = objectKey(pod);
      if (isBound(pod)) {
        cache.setPod(pod);
        if (!isBound(old)) queue.forget(key);
        if (!isBound(old) || !deepEqual(old.metadata.labels, pod.metadata.labels)) queue.moveParked(true);
      } else if (!isResponsible(pod, schedulerName)) queue.forget(key);
      else if (!isResponsible(old, schedulerName) || podSpecChanged(old, pod)) queue.add(key);
    },
    onDelete(pod) {
      const key = objectKey(pod);
      const wasPlaced = cache.nodeOf(key) !== undefined;
      cache.deletePod(key);
      queue.forget(key);
      if (wasPlaced) queue.moveParked();
    },
  };
}

export function nodeHandler(cache: SchedulerCache, queue: SchedulingQueue): EventHandler<Node> {
  return {
    onAdd(node) {
      cache.setNode(node);
      queue.moveParked();
    },
    onUpdate(old, node) {
      cache.setNode(node);
      if (!deepEqual(nodeSchedulingView(old), nodeSchedulingView(node))) queue.moveParked();
    },
    onDelete(node) {
      cache.deleteNode(node.metadata.name ?? '');
    },
  };
}

/** Namespace labels feed namespaceSelector terms; a label change may help parked pods. */
export function namespaceHandler(queue: SchedulingQueue): EventHandler<KObject> {
  return {
    onAdd: () => queue.moveParked(true),
    onUpdate: (old, ns) => {
      if (!deepEqual(old.metadata.labels, ns.metadata.labels)) queue.moveParked(true);
    },
  };
}
