/**
 * Registration of broadcastjob-controller (docs/design/jobs.md §3): woken by its jobs, by the pods
 * they control (which also meet the scale expectations), and by nodes: a node that appears wakes the
 * jobs whose pod would fit it, a node whose placement fields change wakes the jobs whose fit changed
 * (heartbeats are ignored), and a node that goes wakes the unfinished jobs (their desired count drops).
 */
import type { Node, Pod, PodSpec } from '../../api/core/index.js';
import type { BroadcastJob } from './types.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper, Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { isFinished } from './job-status.js';
import { fits, mockPodSpec } from './node-fitness.js';
import { BroadcastJobReconciler } from './reconcile.js';

export { BroadcastJobReconciler } from './reconcile.js';
export const broadcastJobControllerName = 'broadcastjob-controller';

export interface BroadcastJobControllerOptions {
  /** Concurrent reconciles (upstream --broadcastjob-workers, default 3). */
  workers?: number;
  /** Pin pods by node affinity for the scheduler (upstream --assign-bcj-pods-by-scheduler, default true). */
  assignByScheduler?: boolean;
}

interface Caches { jobs: BroadcastJob; pods: Pod; nodes: Node }

const keyOf = (j: BroadcastJob): Request => ({ namespace: j.metadata.namespace, name: j.metadata.name! });
const templateSpec = (j: BroadcastJob) => (j.spec?.template as { spec?: PodSpec } | undefined)?.spec;
const jobFits = (j: BroadcastJob, node: Node) => fits(mockPodSpec(templateSpec(j), node.metadata.name!), node);

/** What placement reads from a node: labels, taints, schedulability, allocatable and the True conditions. */
function placementFields(node: Node): unknown {
  const trueConditions = (node.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type).sort();
  return [node.metadata.labels, node.spec, node.status?.allocatable, trueConditions];
}

function nodeEvents(jobs: Informer<BroadcastJob>): EventMapper<Node> {
  const unfinished = () => jobs.list().filter((j) => !isFinished(j));
  return {
    onAdd: (node) => unfinished().filter((j) => jobFits(j, node)).map(keyOf),
    onUpdate: (old, node) => (deepEqual(placementFields(old), placementFields(node))
      ? [] : unfinished().filter((j) => jobFits(j, old) !== jobFits(j, node)).map(keyOf)),
    // DEV: upstream ignores node deletion; a job waiting on that node would then wait for the pod GC
    onDelete: () => unfinished().map(keyOf),
  };
}

export function setupBroadcastJobController(mgr: Manager, options: BroadcastJobControllerOptions = {}): Controller {
  return mgr.controllerFor<Caches>(broadcastJobControllerName, { workers: options.workers ?? 3 })
    .for('jobs', BroadcastJobs)
    .owns('pods', Pods, { expectations: 'scale' })
    .watches('nodes', Nodes, ({ informers }) => nodeEvents(informers.jobs))
    .complete(({ informers, client, expectations, events }) => new BroadcastJobReconciler({
      ...informers, client, events, expectations: expectations.scale, statusWrites: expectations.updates,
      assignByScheduler: options.assignByScheduler ?? true,
    }));
}
