/**
 * autoscaling/v1 <-> v2 HorizontalPodAutoscaler conversion (docs/design/autoscaling.md §1): v1 holds
 * the CPU utilization target and current value in its own fields and, as kube does, the rest of v2
 * (other metrics, behavior, conditions, current metrics) in `autoscaling.alpha.kubernetes.io/*`
 * annotations so a v1 round trip keeps it.
 */
import type { KObject } from '../../../api/meta.js';
import { child, items, type Json } from '../../../machinery/json.js';

const metricsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
const currentMetricsAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
const kept = [metricsAnnotation, behaviorAnnotation, conditionsAnnotation, currentMetricsAnnotation];

const isCpuUtilization = (m: Json) => m.type === 'Resource' && child(m, 'resource')?.name === 'cpu' && child(child(m, 'resource'), 'target')?.type === 'Utilization';

/** Go's field names for behavior in the v1 annotation (the Go struct has no JSON tags there). */
function goCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goCase);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k[0]!.toUpperCase() + k.slice(1), goCase(v)]));
}
function jsonCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonCase);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k[0]!.toLowerCase() + k.slice(1), jsonCase(v)]));
}

function withAnnotations(obj: KObject, add: Record<string, string>): KObject['metadata'] {
  const annotations = Object.fromEntries(Object.entries(obj.metadata.annotations ?? {}).filter(([k]) => !kept.includes(k)));
  Object.assign(annotations, add);
  const { annotations: _dropped, ...meta } = obj.metadata;
  return Object.keys(annotations).length === 0 ? meta : { ...meta, annotations };
}

export function hpaV2ToV1(obj: KObject): KObject {
  const spec = child(obj, 'spec') ?? {};
  const status = child(obj, 'status') ?? {};
  const metrics = items(spec, 'metrics');
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const add: Record<string, string> = {};
  if (others.length) add[metricsAnnotation] = JSON.stringify(others);
  if (spec.behavior) add[behaviorAnnotation] = JSON.stringify(goCase(spec.behavior));
  if (items(status, 'conditions').length) add[conditionsAnnotation] = JSON.stringify(status.conditions);
  const currents = items(status, 'currentMetrics');
  const currentCpu = currents.find((m) => m.type === 'Resource' && child(m, 'resource')?.name === 'cpu');
  if (currents.length) add[currentMetricsAnnotation] = JSON.stringify(currents);
  const v1Spec: Json = { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas };
  if (cpu) v1Spec.targetCPUUtilizationPercentage = child(child(cpu, 'resource'), 'target')?.averageUtilization;
  const v1Status: Json = {
    observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime,
    currentReplicas: status.currentReplicas ?? 0, desiredReplicas: status.desiredReplicas ?? 0,
    currentCPUUtilizationPercentage: child(child(currentCpu, 'resource'), 'current')?.averageUtilization,
  };
  for (const o of [v1Spec, v1Status]) for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return { apiVersion: 'autoscaling/v1', kind: obj.kind, metadata: withAnnotations(obj, add), spec: v1Spec, status: v1Status };
}

const parse = (obj: KObject, key: string): unknown => {
  const text = obj.metadata.annotations?.[key];
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

export function hpaV1ToV2(obj: KObject): KObject {
  const spec = child(obj, 'spec') ?? {};
  const status = child(obj, 'status') ?? {};
  const metrics: Json[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  const others = parse(obj, metricsAnnotation);
  if (Array.isArray(others)) metrics.push(...(others as Json[]));
  const v2Spec: Json = { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas };
  // kube defaults the stored v2 object as it decodes it: no metrics means cpu at 80%
  v2Spec.metrics = metrics.length ? metrics : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  const behavior = parse(obj, behaviorAnnotation);
  if (behavior) v2Spec.behavior = jsonCase(behavior);
  const v2Status: Json = {
    observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime,
    currentReplicas: status.currentReplicas || undefined, desiredReplicas: status.desiredReplicas ?? 0,
    currentMetrics: parse(obj, currentMetricsAnnotation) ?? null, conditions: parse(obj, conditionsAnnotation),
  };
  for (const o of [v2Spec, v2Status]) for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return { apiVersion: 'autoscaling/v2', kind: obj.kind, metadata: withAnnotations(obj, {}), spec: v2Spec, status: v2Status };
}
