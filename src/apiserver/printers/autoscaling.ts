/** The HorizontalPodAutoscaler printer (kube-apiserver 1.32's columns and TARGETS text). */
import type { ColumnDefinition, TablePrinter } from '../../api/resource.js';
import { ageSince } from './age.js';
import { ageColumn, col, nameColumn, printer } from './columns.js';
import { arrayAt, createdAt, nameOf, numberAt, stringAt, valueAt } from './fields.js';

const hpaColumns: ColumnDefinition[] = [
  col("Reference", "string",
    "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count."),
  col("Targets", "string",
    "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond."),
  col("MinPods", "string",
    "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available."),
  col("MaxPods", "string",
    "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas."),
  col("Replicas", "string",
    "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler."),
];
type Target = { type?: string; averageUtilization?: number; averageValue?: string; value?: string };
type Current = { averageUtilization?: number; averageValue?: string; value?: string };

function targetText(target: Target | undefined, current: Current | undefined): string {
  if (target?.type === 'Utilization') {
    const have = current?.averageUtilization;
    return `${have === undefined ? '<unknown>' : `${have}%`}/${target.averageUtilization ?? 0}%`;
  }
  const want = target?.type === 'Value' ? target.value : target?.averageValue;
  const have = target?.type === 'Value' ? current?.value : current?.averageValue;
  return `${have ?? '<unknown>'}/${want ?? ''}`;
}

/** One entry per metric (two at most, then "+ N more..."), each matched with its current value by position and name. */
export function formatHpaMetrics(hpa: unknown): string {
  const specs = arrayAt(hpa, 'spec', 'metrics') as Record<string, any>[];
  const currents = arrayAt(hpa, 'status', 'currentMetrics') as Record<string, any>[];
  if (specs.length === 0) return '<none>';
  const max = 2;
  const list = specs.slice(0, max).map((spec) => {
    const type = spec.type as string;
    const key = type === 'Resource' ? 'resource' : type === 'ContainerResource' ? 'containerResource' : type === 'Pods' ? 'pods' : type === 'Object' ? 'object' : 'external';
    const body = spec[key] ?? {};
    const current = currents.find((c) => c.type === type && (c[key]?.name ?? c[key]?.metric?.name) === (body.name ?? body.metric?.name));
    const text = targetText(body.target, current?.[key]?.current);
    return type === 'Resource' || type === 'ContainerResource' ? `${body.name}: ${text}` : text;
  });
  const joined = list.join(', ');
  return specs.length > max ? `${joined} + ${specs.length - max} more...` : joined;
}

export const hpaPrinter: TablePrinter = printer([nameColumn(), ...hpaColumns, ageColumn()], (hpa, now) => {
  const min = valueAt(hpa, 'spec', 'minReplicas');
  return [
    nameOf(hpa),
    `${stringAt(hpa, 'spec', 'scaleTargetRef', 'kind')}/${stringAt(hpa, 'spec', 'scaleTargetRef', 'name')}`,
    formatHpaMetrics(hpa),
    typeof min === 'number' ? String(min) : '<unset>',
    numberAt(hpa, 'spec', 'maxReplicas'),
    numberAt(hpa, 'status', 'currentReplicas'),
    ageSince(createdAt(hpa), now),
  ];
});
