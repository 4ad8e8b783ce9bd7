/**
 * kube-controller-manager's replica calculator for resource metrics (docs/design/autoscaling.md §4):
 * the usage ratio over the ready pods with metrics, a 10% tolerance, and the second pass that counts
 * pods without metrics as at target (scale down) or idle (scale up) and not-ready pods as idle on
 * a scale up, keeping the current count when that pass reverses or cancels the direction.
 */
import type { Pod } from '../../../api/core/index.js';

export const tolerance = 0.1;

export interface PodSample {
  pod: Pod;
  /** Usage in milli-units (millicores, milli-bytes), undefined without a metric. */
  usage?: number;
  /** Sum of the containers' requests in milli-units, undefined when a container has none. */
  request?: number;
}

export interface ResourceTarget {
  /** Percent of request, or an average per pod in milli-units. */
  utilization?: number;
  averageMilli?: number;
}

export interface Calculation {
  replicas: number;
  /** Current utilization (percent) for utilization targets. */
  utilization?: number;
  /** Average usage per pod with a metric, in milli-units. */
  averageMilli: number;
}

const isReady = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

export class MetricError extends Error {}

function ratioOf(usage: Map<Pod, number>, samples: PodSample[], target: ResourceTarget): { ratio: number; utilization?: number; averageMilli: number } {
  let total = 0;
  let requests = 0;
  for (const [pod, u] of usage) {
    total += u;
    requests += samples.find((s) => s.pod === pod)?.request ?? 0;
  }
  const averageMilli = usage.size ? Math.trunc(total / usage.size) : 0;
  if (target.utilization !== undefined) {
    if (requests === 0) throw new MetricError('no metrics returned matched known pods');
    const utilization = Math.trunc((total * 100) / requests);
    return { ratio: utilization / target.utilization, utilization, averageMilli };
  }
  return { ratio: averageMilli / (target.averageMilli ?? 1), averageMilli };
}

export function calculateReplicas(current: number, samples: PodSample[], target: ResourceTarget, resource: string): Calculation {
  const usage = new Map<Pod, number>();
  const unready: PodSample[] = [];
  const missing: PodSample[] = [];
  for (const s of samples) {
    if (s.pod.metadata.deletionTimestamp || s.pod.status?.phase === 'Failed') continue;
    if (s.pod.status?.phase === 'Pending') unready.push(s);
    else if (s.usage === undefined) missing.push(s);
    else if (resource === 'cpu' && !isReady(s.pod)) unready.push(s);
    else usage.set(s.pod, s.usage);
  }
  if (target.utilization !== undefined) {
    const lacking = samples.find((s) => s.request === undefined);
    if (lacking) throw new MetricError(`missing request for ${resource} in container ${lacking.pod.spec.containers[0]?.name ?? ''} of Pod ${lacking.pod.metadata.name}`);
  }
  if (usage.size === 0) throw new MetricError('did not receive metrics for targeted pods (pods might be unready)');
  const first = ratioOf(usage, samples, target);
  const scaleUpWithUnready = unready.length > 0 && first.ratio > 1;
  const result = (replicas: number): Calculation => ({ replicas, utilization: first.utilization, averageMilli: first.averageMilli });
  if (!scaleUpWithUnready && missing.length === 0) {
    return result(Math.abs(1 - first.ratio) <= tolerance ? current : Math.ceil(first.ratio * usage.size));
  }
  // what a pod without a metric is taken to use: its request (or the target average) on a scale down, nothing on a scale up
  const atTarget = (s: PodSample) => (target.utilization !== undefined ? ((s.request ?? 0) * target.utilization) / 100 : target.averageMilli ?? 0);
  for (const s of missing) usage.set(s.pod, first.ratio < 1 ? atTarget(s) : 0);
  if (scaleUpWithUnready) for (const s of unready) usage.set(s.pod, 0);
  const second = ratioOf(usage, samples, target);
  if (Math.abs(1 - second.ratio) <= tolerance || (first.ratio < 1 && second.ratio > 1) || (first.ratio > 1 && second.ratio < 1)) return result(current);
  const replicas = Math.ceil(second.ratio * usage.size);
  if ((second.ratio < 1 && replicas > current) || (second.ratio > 1 && replicas < current)) return result(current);
  return result(replicas);
}
