/**
 * The HPA's metric step (docs/design/autoscaling.md §4): for each Resource metric, the pods of the
 * target's selector with their usage from `metrics.k8s.io` PodMetrics and their requests, handed to
 * the replica calculator; the largest proposal wins. Returns the proposal, the metric statuses and
 * the ScalingActive condition kube writes.
 */
import type { KObject } from '../../../api/meta.js';
import type { ResourceType } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { parseLabelSelector } from '../../../machinery/labels.js';
import { formatQuantity, milliValue } from '../../../machinery/quantity.js';
import { calculateReplicas, type PodSample } from './replica-calculator.js';
import type { ConditionNote } from './normalize.js';
import type { Pod } from '../../../api/core/index.js';

export const PodMetricsType: ResourceType = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', kind: 'PodMetrics', namespaced: true };

type Target = { type?: string; averageUtilization?: number; averageValue?: string };
export interface MetricSpec { type: string; resource?: { name: string; target?: Target } }
type PodMetrics = KObject & { containers?: { name: string; usage?: Record<string, string> }[] };

export interface MetricsResult {
  replicas: number;
  /** What the winning proposal is based on (for the SuccessfulRescale reason). */
  metricName: string;
  statuses: unknown[];
  scalingActive: ConditionNote;
  /** Warning events to record (reason, message). */
  warnings: [string, string][];
}

const milliText = (milli: number) => formatQuantity({ nanos: BigInt(milli) * 1_000_000n, format: 'DecimalSI' });

function requestOf(pod: Pod, resource: string): number | undefined {
  let total = 0;
  for (const c of pod.spec.containers) {
    const r = c.resources?.requests?.[resource];
    if (r === undefined) return undefined;
    total += milliValue(r);
  }
  return total;
}

export async function computeReplicas(client: Client, namespace: string, pods: Pod[], selector: string, current: number, specs: MetricSpec[]): Promise<MetricsResult> {
  const matcher = parseLabelSelector(selector);
  const selected = pods.filter((p) => p.metadata.namespace === namespace && matcher.matches(p.metadata.labels));
  const list = await client.list<PodMetrics>(PodMetricsType, { namespace, labelSelector: selector });
  const usageByPod = new Map(list.items.map((m) => [m.metadata.name, m]));
  const out: MetricsResult = { replicas: 0, metricName: '', statuses: [], scalingActive: { status: 'False', reason: '', message: '' }, warnings: [] };
  let firstError: { reason: string; message: string } | undefined;
  let valid = 0;
  for (const spec of specs) {
    const name = spec.resource?.name ?? '';
    const target = spec.resource?.target;
    const utilization = target?.type === 'Utilization';
    try {
      if (spec.type !== 'Resource') throw new Error(`the ${spec.type} metric source is not served by the simulated metrics API`);
      const samples: PodSample[] = selected.map((pod) => {
        const m = usageByPod.get(pod.metadata.name);
        const usage = m ? (m.containers ?? []).reduce((acc, c) => acc + milliValue(c.usage?.[name] ?? '0'), 0) : undefined;
        return { pod, usage, request: requestOf(pod, name) };
      });
      const calc = calculateReplicas(current, samples, utilization ? { utilization: target?.averageUtilization ?? 0 } : { averageMilli: milliValue(target?.averageValue ?? '0') }, name);
      const metricName = utilization ? `${name} resource utilization (percentage of request)` : `${name} resource`;
      out.statuses.push({ type: 'Resource', resource: { name, current: utilization ? { averageUtilization: calc.utilization, averageValue: milliText(calc.averageMilli) } : { averageValue: milliText(calc.averageMilli) } } });
      if (valid === 0 || calc.replicas > out.replicas) [out.replicas, out.metricName] = [calc.replicas, metricName];
      if (valid === 0) out.scalingActive = { status: 'True', reason: 'ValidMetricFound', message: `the HPA was able to successfully calculate a replica count from ${metricName}` };
      valid++;
    } catch (e) {
      const message = `failed to get ${name} ${utilization ? 'utilization' : 'usage'}: ${(e as Error).message}`;
      out.warnings.push(['FailedGetResourceMetric', message]);
      out.statuses.push({ type: '' });
      firstError ??= { reason: 'FailedGetResourceMetric', message: `the HPA was unable to compute the replica count: ${message}` };
    }
  }
  out.statuses = out.statuses.filter((s) => (s as { type: string }).type !== '');
  if (valid === 0 && firstError) {
    out.scalingActive = { status: 'False', ...firstError };
    out.warnings.push(['FailedComputeMetricsReplicas', `invalid metrics (${specs.length} invalid out of ${specs.length}), first error is: failed to get ${specs[0]?.resource?.name ?? ''} resource metric value: ${firstError.message.replace('the HPA was unable to compute the replica count: ', '')}`]);
  }
  return out;
}
