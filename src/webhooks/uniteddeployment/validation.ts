/**
 * UnitedDeployment validation (docs/design/webhooks.md §13): replicas, selector, subset template, topology
 * (subset names, node selectors, tolerations, replica settings, adaptive rules), manual partitions.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { specOf } from '../../machinery/podspec/workload-validation.js';
import { validateTolerations } from '../../machinery/podspec/pod-spec-validation.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { isEmptySelector, validateLabelSelector } from '../../machinery/validation/label-selector.js';
import { isDNS1123Label } from '../../machinery/validation/names.js';
import { child, has, isObject, items, num, str, type Json } from '../../machinery/json.js';
import { validateWorkloadMeta } from '../common/meta.js';
import { validateNodeSelectorTerm } from '../common/node-selector.js';
import { validateSubsetReplicas } from './subset-replicas.js';
import { presentKinds, validateSubsetTemplate } from './template-validation.js';

export function validateUnitedDeployment(obj: KObject): FieldError[] {
  const spec = specOf(obj);
  const topology = child(spec, 'topology');
  const subsets = items(topology, 'subsets');
  return [
    ...validateWorkloadMeta(obj),
    ...nonNegative('spec.replicas', spec.replicas),
    ...selectorErrors(spec),
    ...(isObject(spec.selector) ? validateSubsetTemplate(child(spec, 'template'), spec.selector, 'spec.template') : []),
    ...reservationErrors(spec),
    ...validateSubsetReplicas(num(spec, 'replicas'), subsets, 'spec.topology.subsets'),
    ...subsetErrors(subsets, child(topology, 'scheduleStrategy')?.type === 'Adaptive'),
    ...updateStrategyErrors(child(spec, 'updateStrategy'), subsets),
  ];
}

function selectorErrors(spec: Json): FieldError[] {
  if (!isObject(spec.selector)) return [field.required('spec.selector')];
  const errs = validateLabelSelector(spec.selector, 'spec.selector');
  if (isEmptySelector(spec.selector)) errs.push(field.invalid('spec.selector', spec.selector, 'empty selector is invalid for uniteddeployment'));
  return errs;
}

/** Reserving unschedulable pods works by scaling Deployments and CloneSets only. */
function reservationErrors(spec: Json): FieldError[] {
  const adaptive = child(child(child(spec, 'topology'), 'scheduleStrategy'), 'adaptive');
  if (adaptive?.reserveUnschedulablePods !== true) return [];
  const kind = presentKinds(spec.template)[0];
  if (kind === undefined || kind === 'deploymentTemplate' || kind === 'cloneSetTemplate') return [];
  return [field.forbidden('spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods',
    'reserveUnschedulablePods is only supported with deploymentTemplate or cloneSetTemplate')];
}

function subsetErrors(subsets: Json[], adaptive: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  subsets.forEach((subset, i) => {
    const p = `spec.topology.subsets[${i}]`;
    const name = str(subset, 'name');
    if (!name) errs.push(field.required(`${p}.name`));
    if (names.has(name)) errs.push(field.invalid(`${p}.name`, name, `duplicated subset name ${name}`));
    names.add(name);
    const nameErrs = isDNS1123Label(name);
    if (nameErrs.length > 0) errs.push(field.invalid(`${p}.name`, name, `invalid subset name ${nameErrs.join(', ')}`));
    errs.push(...validateNodeSelectorTerm(subset.nodeSelectorTerm, `${p}.nodeSelectorTerm`));
    errs.push(...validateTolerations(items(subset, 'tolerations'), `${p}.tolerations`));
    if (adaptive && has(subset, 'replicas')) {
      errs.push(field.forbidden(`${p}.replicas`, 'subset replicas may not be set when scheduleStrategy type is Adaptive'));
    }
  });
  return errs;
}

function updateStrategyErrors(strategy: Json | undefined, subsets: Json[]): FieldError[] {
  const errs: FieldError[] = [];
  const type = strategy?.type ?? '';
  if (type !== '' && type !== 'Manual') errs.push(field.notSupported('spec.updateStrategy.type', type, ['Manual']));
  const partitions = child(child(strategy, 'manualUpdate'), 'partitions') ?? {};
  const names = new Set(subsets.map((s) => str(s, 'name')));
  for (const subset of Object.keys(partitions).sort()) {
    if (!names.has(subset)) errs.push(field.invalid('spec.updateStrategy.manualUpdate.partitions', partitions, `subset ${subset} does not exist`));
  }
  return errs;
}
