/**
 * PodProbeMarker validation (vpodprobemarker.kb.io, v1alpha1, create and update; both
 * PodProbeMarkerGate and KruiseDaemon must be on): a non-empty selector that never changes, and
 * probes with unique names that are not pod condition names Kubernetes or Kruise own, a container,
 * a valid probe, and a pod condition and/or unique marker policies.
 */
import type { KObject } from '../../api/meta.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, items, str, stringMap, type Json } from '../../machinery/json.js';
import { qualifiedName } from '../../machinery/validation/checks.js';
import { isEmptySelector, validateLabelSelector } from '../../machinery/validation/label-selector.js';
import { validateAnnotations, validateLabels } from '../../machinery/validation/names.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { validateProbe } from './probe.js';

const reservedConditions = ['PodScheduled', 'Initialized', 'Ready', 'ContainersReady', 'KruisePodReady', 'InPlaceUpdateReady'];

export function validatePodProbeMarkerRequest(input: AdmissionInput): FieldError[] {
  for (const gate of ['PodProbeMarkerGate', 'KruiseDaemon']) {
    if (!input.gate(gate)) throw new AdmissionDenied(403, `feature-gate ${gate} is not enabled`);
  }
  const obj = input.object;
  if (!obj || input.request.subResource) return [];
  const errs = validatePodProbeMarker(obj);
  const oldSelector = child(input.oldObject, 'spec')?.selector;
  if (input.request.operation === 'UPDATE' && input.oldObject && !deepEqual(child(obj, 'spec')?.selector, oldSelector)) {
    errs.push(field.invalid('spec.selector', child(obj, 'spec')?.selector ?? null, 'selector must be immutable'));
  }
  return errs;
}

export function validatePodProbeMarker(obj: KObject): FieldError[] {
  const spec = child(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  if (!has(spec, 'selector')) errs.push(field.invalid('spec.selector', null, 'empty Selector is not valid for PodProbeMarker.'));
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    if (isEmptySelector(spec.selector)) errs.push(field.invalid('spec.selector', spec.selector, 'empty selector is not valid for podProbeMarker.'));
  }
  const probes = items(spec, 'probes');
  if (probes.length === 0) return [...errs, field.invalid('spec.probes', spec.probes ?? [], 'empty probes is not valid for PodProbeMarker.')];
  const names = new Set<string>();
  const conditions = new Set<string>();
  probes.forEach((probe, i) => errs.push(...validateProbeEntry(probe, `spec.probes[${i}]`, names, conditions)));
  return errs;
}

function validateProbeEntry(probe: Json, p: string, names: Set<string>, conditions: Set<string>): FieldError[] {
  const name = str(probe, 'name');
  if (name.includes('#')) return [field.invalid(`${p}.name`, name, "probe name can't contains '#'.")];
  if (!name) return [field.invalid(`${p}.name`, name, "probe name can't be empty in PodProbeMarker.")];
  if (!str(probe, 'containerName')) return [field.invalid(`${p}.containerName`, '', "probe containerName can't be empty in PodProbeMarker.")];
  if (reservedConditions.includes(name)) return [field.invalid(`${p}.name`, name, `probe name can't be ${name}`)];
  if (names.has(name)) return [field.invalid(`${p}.name`, name, 'probe name must be unique in PodProbeMarker.')];
  names.add(name);
  const errs = validateProbe(child(probe, 'probe'), `${p}.probe`);
  const conditionType = str(probe, 'podConditionType');
  const policies = items(probe, 'markerPolicy');
  if (!conditionType && policies.length === 0) {
    return [...errs, field.invalid(p, name, 'podConditionType and markerPolicy cannot be empty at the same time')];
  }
  if (conditionType) {
    if (conditions.has(conditionType)) return [...errs, field.invalid(`${p}.podConditionType`, conditionType, `podConditionType ${conditionType} must be unique in podProbeMarker`)];
    conditions.add(conditionType);
    errs.push(...qualifiedName(`${p}.podConditionType`, conditionType));
  }
  errs.push(...validateMarkerPolicies(policies, `${p}.markerPolicy`));
  return errs;
}

function validateMarkerPolicies(policies: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const states = new Set<string>();
  policies.forEach((policy, i) => {
    const p = `${path}[${i}]`;
    const state = str(policy, 'state');
    if (states.has(state)) errs.push(field.invalid(`${p}.state`, state, 'marker policy state must be unique.'));
    states.add(state);
    if (state !== 'Succeeded' && state !== 'Failed') {
      errs.push(field.required(`${p}.state`, "marker policy state must be 'Succeeded' or 'Failed'"));
      return;
    }
    const labels = stringMap(policy, 'labels');
    const annotations = stringMap(policy, 'annotations');
    if (Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) {
      errs.push(field.required(p, "marker policy annotations or labels can't be both empty"));
      return;
    }
    errs.push(...validateLabels(labels, `${p}.labels`), ...validateAnnotations(annotations, `${p}.annotations`));
  });
  return errs;
}
