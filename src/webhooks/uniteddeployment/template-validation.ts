/**
 * The subset workload template of a UnitedDeployment (docs/design/webhooks.md §13): exactly one kind,
 * labels matching the UD selector, no replicas or partition (the UD owns them), and a valid pod
 * template for the StatefulSet, Advanced StatefulSet and Deployment kinds.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { selectorMatches, templateLabels } from '../../machinery/validation/label-selector.js';
import { stringMap, child, has, type Json } from '../../machinery/json.js';
import { validateWorkloadTemplate } from '../common/workload-template.js';
import { validateRetentionPolicy } from '../common/retention-policy.js';

export const templateKinds = ['statefulSetTemplate', 'advancedStatefulSetTemplate', 'cloneSetTemplate', 'deploymentTemplate'] as const;
export type TemplateKind = (typeof templateKinds)[number];

export const presentKinds = (template: unknown): TemplateKind[] => templateKinds.filter((k) => has(template, k));

const kindList = 'statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate';

export function validateSubsetTemplate(template: Json | undefined, selector: unknown, path: string): FieldError[] {
  const kinds = presentKinds(template);
  if (kinds.length === 0) return [field.required(path, `should provide one of ${kindList}`)];
  const errs: FieldError[] = [];
  if (kinds.length > 1) errs.push(field.invalid(path, template, `should provide only one of ${kindList}`));
  const kind = kinds[0];
  const p = `${path}.${kind}`;
  const subset = child(template, kind) ?? {};
  const labels = stringMap(child(subset, 'metadata'), 'labels');
  if (!selectorMatches(selector, labels)) errs.push(field.invalid(`${p}.metadata.labels`, labels, '`selector` does not match template `labels`'));
  const spec = child(subset, 'spec') ?? {};
  if (kind === 'cloneSetTemplate') return errs;
  if (has(spec, 'replicas')) errs.push(field.invalid(`${p}.spec.replicas`, spec.replicas, `replicas in ${kind} will not be used`));
  if (kind !== 'deploymentTemplate') errs.push(...statefulSetSpecErrors(kind, spec, `${p}.spec`));
  errs.push(...podTemplateErrors(spec, selector, `${p}.spec`, kind === 'deploymentTemplate' ? 'ReplicaSet' : 'StatefulSet'));
  return errs;
}

function statefulSetSpecErrors(kind: TemplateKind, spec: Json, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = child(spec, 'updateStrategy');
  const partition = child(strategy, 'rollingUpdate')?.partition;
  if (strategy?.type === 'RollingUpdate' && partition !== undefined && partition !== null) {
    errs.push(field.invalid(`${p}.updateStrategy.rollingUpdate.partition`, partition, `partition in ${kind} will not be used`));
  }
  const policy = spec.podManagementPolicy;
  if (policy !== undefined && policy !== 'OrderedReady' && policy !== 'Parallel') {
    errs.push(field.invalid(`${p}.podManagementPolicy`, policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  if (strategy?.type !== undefined && strategy.type !== 'RollingUpdate' && strategy.type !== 'OnDelete') {
    errs.push(field.invalid(`${p}.updateStrategy`, strategy, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errs.push(...validateRetentionPolicy(child(spec, 'persistentVolumeClaimRetentionPolicy'), `${p}.persistentVolumeClaimRetentionPolicy`));
  return errs;
}

function podTemplateErrors(spec: Json, selector: unknown, p: string, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const labels = templateLabels(spec.template);
  if (has(spec, 'template') && !selectorMatches(selector, labels)) {
    errs.push(field.invalid(`${p}.template.metadata.labels`, labels, '`selector` does not match template `labels`'));
  }
  errs.push(...validateWorkloadTemplate(spec, p, { kind, restartPolicyAfterDefaults: kind === 'ReplicaSet' }));
  return errs;
}
