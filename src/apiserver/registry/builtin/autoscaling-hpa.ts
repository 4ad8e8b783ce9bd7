/**
 * autoscaling/v2 HorizontalPodAutoscaler (stored) and its autoscaling/v1 view: kube-apiserver 1.32's
 * defaults (minReplicas 1, the 80% CPU metric, behavior rules filled once behavior is given) and
 * validation, measured against it (docs/design/autoscaling.md §1).
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { child, ensure, items, num, setDefault, str, type Json } from '../../../machinery/json.js';
import { oneOf } from '../../../machinery/validation/checks.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { hpaV1ToV2, hpaV2ToV1 } from './hpa-conversion.js';

const defaultRules = {
  scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
  scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
};

export function defaultHpa(hpa: KObject): void {
  const spec = ensure(hpa, 'spec');
  setDefault(spec, 'minReplicas', 1);
  if (items(spec, 'metrics').length === 0) spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  const behavior = child(spec, 'behavior');
  if (behavior) {
    for (const dir of ['scaleUp', 'scaleDown'] as const) {
      const rules = ensure(behavior, dir);
      const d = defaultRules[dir] as Json;
      if (d.stabilizationWindowSeconds !== undefined) setDefault(rules, 'stabilizationWindowSeconds', d.stabilizationWindowSeconds);
      setDefault(rules, 'selectPolicy', d.selectPolicy);
      if (items(rules, 'policies').length === 0) rules.policies = structuredClone(d.policies);
    }
  }
  defaultHpaStatus(hpa);
}

/** Go's non-omitempty status fields; also after create resets status. */
function defaultHpaStatus(hpa: KObject): void {
  const status = ensure(hpa, 'status');
  setDefault(status, 'desiredReplicas', 0);
  if (!('currentMetrics' in status)) status.currentMetrics = null;
}

const metricTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const metricKey: Record<string, string> = { Resource: 'resource', ContainerResource: 'containerResource', Pods: 'pods', Object: 'object', External: 'external' };

function validateTarget(p: string, target: Json | undefined, type: string): FieldError[] {
  const errs = oneOf(`${p}.type`, target?.type, ['AverageValue', 'Utilization', 'Value']);
  const utilization = num(target, 'averageUtilization');
  if (utilization !== undefined && utilization < 1) errs.push(field.invalid(`${p}.averageUtilization`, utilization, 'must be greater than 0'));
  if ((type === 'Resource' || type === 'ContainerResource') && target?.type === 'Utilization' && utilization === undefined) {
    errs.push(field.required(`${p}.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (target?.type === 'AverageValue' && target.averageValue === undefined) errs.push(field.required(`${p}.averageValue`, 'must set either a target value for metric or a per-pod target'));
  if (target?.type === 'Value' && target.value === undefined) errs.push(field.required(`${p}.value`, 'must set either a target value for metric or a per-pod target'));
  return errs;
}

function validateRules(p: string, rules: Json | undefined): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = num(rules, 'stabilizationWindowSeconds');
  if (window !== undefined && window < 0) errs.push(field.invalid(`${p}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > 3600) errs.push(field.invalid(`${p}.stabilizationWindowSeconds`, window, 'must be less than or equal to 3600'));
  errs.push(...oneOf(`${p}.selectPolicy`, rules.selectPolicy, ['Disabled', 'Max', 'Min'], false));
  items(rules, 'policies').forEach((policy, i) => {
    const q = `${p}.policies[${i}]`;
    errs.push(...oneOf(`${q}.type`, policy.type, ['Percent', 'Pods']));
    const value = num(policy, 'value') ?? 0;
    if (value <= 0) errs.push(field.invalid(`${q}.value`, value, 'must be greater than zero'));
    const period = num(policy, 'periodSeconds') ?? 0;
    if (period <= 0) errs.push(field.invalid(`${q}.periodSeconds`, period, 'must be greater than zero'));
    else if (period > 1800) errs.push(field.invalid(`${q}.periodSeconds`, period, 'must be less than or equal to 1800'));
  });
  return errs;
}

export function validateHpa(hpa: KObject): FieldError[] {
  const spec = child(hpa, 'spec') ?? {};
  const errs: FieldError[] = [];
  const min = num(spec, 'minReplicas');
  const max = num(spec, 'maxReplicas') ?? 0;
  if (min !== undefined && min < 1) errs.push(field.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(field.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(field.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const ref = child(spec, 'scaleTargetRef');
  if (str(ref, 'kind') === '') errs.push(field.required('spec.scaleTargetRef.kind'));
  if (str(ref, 'name') === '') errs.push(field.required('spec.scaleTargetRef.name'));
  let objectOrExternal = false;
  items(spec, 'metrics').forEach((metric, i) => {
    const p = `spec.metrics[${i}]`;
    const type = str(metric, 'type');
    if (type === 'Object' || type === 'External') objectOrExternal = true;
    if (!metricTypes.includes(type)) return void errs.push(...oneOf(`${p}.type`, type, metricTypes));
    const body = child(metric, metricKey[type]!);
    if (!body) return void errs.push(field.required(`${p}.${metricKey[type]}`, `must populate information for the given metric source`));
    errs.push(...validateTarget(`${p}.${metricKey[type]}.target`, child(body, 'target'), type));
  });
  if (min === 0 && !objectOrExternal) errs.push(field.forbidden('spec.metrics', 'must specify at least one Object or External metric to support scaling to zero replicas'));
  const behavior = child(spec, 'behavior');
  errs.push(...validateRules('spec.behavior.scaleUp', child(behavior, 'scaleUp')), ...validateRules('spec.behavior.scaleDown', child(behavior, 'scaleDown')));
  return errs;
}

function v1Status(hpa: KObject): void {
  const status = ensure(hpa, 'status');
  setDefault(status, 'currentReplicas', 0);
  setDefault(status, 'desiredReplicas', 0);
}

const hpaDefinition = (version: string) => resource({
  group: 'autoscaling', version, kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true, shortNames: ['hpa'], categories: ['all'], status: true,
});

/** A v1 object is checked as kube checks it: converted to v2 (so the paths are v2's), defaulted, validated. */
function validateV1(hpa: KObject): FieldError[] {
  const v2 = hpaV1ToV2(hpa);
  defaultHpa(v2);
  return validateHpa(v2);
}

/** v2 stored; v1 a view of the same objects (BuiltinResource.storedAs). */
export function hpaResources(): BuiltinResource[] {
  const strategy = { default: defaultHpa, prepareForCreate: defaultHpaStatus, validate: validateHpa, validateUpdate: (hpa: KObject) => validateHpa(hpa) };
  const v1Strategy = {
    default: (hpa: KObject) => {
      setDefault(ensure(hpa, 'spec'), 'minReplicas', 1);
      v1Status(hpa);
    },
    prepareForCreate: v1Status, validate: validateV1, validateUpdate: (hpa: KObject) => validateV1(hpa),
  };
  const v1: BuiltinResource = builtin(hpaDefinition('v1'), v1Strategy);
  v1.storedAs = {
    group: 'autoscaling', plural: 'horizontalpodautoscalers', apiVersion: 'autoscaling/v2',
    convert: (obj, to) => (obj.apiVersion === to ? obj : to === 'autoscaling/v1' ? hpaV2ToV1(obj) : hpaV1ToV2(obj)),
  };
  return [builtin(hpaDefinition('v2'), strategy), v1];
}

/** metrics.k8s.io/v1beta1 PodMetrics and NodeMetrics: discovery and RBAC entries; the handler answers them (docs/design/autoscaling.md §3). */
export function resourceMetricsResources(): BuiltinResource[] {
  const metrics = (kind: string, plural: string, namespaced: boolean) =>
    builtin(resource({ group: 'metrics.k8s.io', version: 'v1beta1', kind, plural, namespaced, verbs: ['get', 'list'] }), {});
  return [metrics('NodeMetrics', 'nodes', false), metrics('PodMetrics', 'pods', true)];
}
