/**
 * PodUnavailableBudget validation on the hub version (pure): annotations, spec, UPDATE
 * immutability and conflicts with the other PUBs of the namespace. Paths and texts are upstream's
 * (including its `spec.selector, targetRef` pseudo-paths), since clients match on them.
 */
import { PubOperations, PubProtectTotalReplicasAnnotation, type PodUnavailableBudget } from '../../api/kruise/ops/podunavailablebudget.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import type { MetaLabelSelector } from '../../machinery/labels.js';
import { intOrPercent } from '../../machinery/validation/checks.js';
import { isEmptySelector, validateLabelSelector } from '../../machinery/validation/label-selector.js';
import { isSelectorLooseOverlap } from './selector-overlap.js';
import { parseGroupVersion, sameTarget } from '../common/target-ref.js';

type Spec = NonNullable<PodUnavailableBudget['spec']>;
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export function validatePubAnnotations(pub: PodUnavailableBudget): FieldError[] {
  const value = pub.metadata?.annotations?.[PubProtectTotalReplicasAnnotation];
  if (value === undefined) return [];
  const path = `metadata.annotations[${PubProtectTotalReplicasAnnotation}]`;
  const n = /^[+-]?[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) return [field.invalid(path, value, 'must be a valid int32')];
  const total = pub.spec?.protectTotalReplicas;
  if (isSet(total) && value !== String(total)) return [field.invalid(path, value, 'must match spec.protectTotalReplicas when both are set')];
  return [];
}

function validateTargets(spec: Spec): FieldError[] {
  const { selector, targetRef } = spec;
  if (!isSet(selector) && !isSet(targetRef)) return [field.required('spec.selector, targetRef', 'no selector or targetRef defined in PodUnavailableBudget')];
  if (isSet(selector) && isSet(targetRef)) return [field.required('spec.selector, targetRef', 'selector and targetRef are mutually exclusive')];
  if (targetRef) {
    const errs: FieldError[] = [];
    if (!targetRef.apiVersion || !targetRef.kind || !targetRef.name) {
      errs.push(field.invalid('spec.targetRef', targetRef, 'empty targetRef is not valid for PodUnavailableBudget'));
    }
    const gv = parseGroupVersion(targetRef.apiVersion ?? '');
    if (gv instanceof Error) errs.push(field.invalid('spec.targetRef', targetRef, gv.message));
    return errs;
  }
  const errs = validateLabelSelector(selector, 'spec.selector');
  if (isEmptySelector(selector)) errs.push(field.invalid('spec.selector', selector, 'empty selector is not valid for PodUnavailableBudget.'));
  return errs;
}

function validateBudget(spec: Spec): FieldError[] {
  const { maxUnavailable, minAvailable } = spec;
  if (!isSet(maxUnavailable) && !isSet(minAvailable)) {
    return [field.required('spec.maxUnavailable, minAvailable', 'no maxUnavailable or minAvailable defined in PodUnavailableBudget')];
  }
  if (isSet(maxUnavailable) && isSet(minAvailable)) {
    return [field.required('spec.maxUnavailable, minAvailable', 'maxUnavailable and minAvailable are mutually exclusive')];
  }
  return isSet(maxUnavailable) ? intOrPercent('spec.maxUnavailable', maxUnavailable, true) : intOrPercent('spec.minAvailable', minAvailable, true);
}

export function validatePubSpec(pub: PodUnavailableBudget): FieldError[] {
  const spec: Spec = pub.spec ?? {};
  const errs = [...validateTargets(spec), ...validateBudget(spec)];
  (spec.protectOperations ?? []).forEach((op, i) => {
    if (!(PubOperations as readonly string[]).includes(op)) errs.push(field.notSupported(`spec.protectOperations[${i}]`, op, [...PubOperations]));
  });
  if (isSet(spec.ignoredPodSelector)) {
    errs.push(...validateLabelSelector(spec.ignoredPodSelector, 'spec.ignoredPodSelector'));
    if (isEmptySelector(spec.ignoredPodSelector)) {
      errs.push(field.invalid('spec.ignoredPodSelector', spec.ignoredPodSelector, 'empty ignoredPodSelector is not valid for PodUnavailableBudget'));
    }
  }
  return errs;
}

export function validatePubUpdate(pub: PodUnavailableBudget, old: PodUnavailableBudget): FieldError[] {
  const same = deepEqual(pub.spec?.selector ?? null, old.spec?.selector ?? null)
    && deepEqual(pub.spec?.targetRef ?? null, old.spec?.targetRef ?? null);
  return same ? [] : [field.required('spec.selector, targetRef', 'selector and targetRef cannot be modified')];
}

/** The first other PUB of the namespace that protects the same workload or loosely the same pods. */
export function validatePubConflicts(pub: PodUnavailableBudget, others: PodUnavailableBudget[]): FieldError[] {
  const name = pub.metadata?.name;
  const { targetRef, selector } = pub.spec ?? {};
  for (const other of others) {
    if (other.metadata?.name === name) continue;
    const o = other.spec ?? {};
    if (targetRef && o.targetRef) {
      if (sameTarget(targetRef, o.targetRef)) {
        return [field.invalid('spec.targetReference', targetRef, `pub.spec.targetReference is in conflict with other PodUnavailableBudget ${other.metadata?.name}`)];
      }
    } else if (selector && o.selector && isSelectorLooseOverlap(selector as MetaLabelSelector, o.selector as MetaLabelSelector)) {
      return [field.invalid('spec.selector', selector, `pub.spec.selector is in conflict with other PodUnavailableBudget ${other.metadata?.name}`)];
    }
  }
  return [];
}
