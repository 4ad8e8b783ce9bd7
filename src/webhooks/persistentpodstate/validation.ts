/** PersistentPodState validation on the hub version (pure; the whitelist and the other PPSs are read by the caller). */
import type { PersistentPodState } from '../../api/kruise/ops/persistentpodstate.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { sameTarget } from '../common/target-ref.js';
import { isSupportedTarget, type WorkloadKind } from './whitelist.js';

export function validatePpsSpec(pps: PersistentPodState, whiteList: WorkloadKind[]): FieldError[] {
  const spec = pps.spec ?? ({} as NonNullable<PersistentPodState['spec']>);
  const ref = spec.targetRef ?? { apiVersion: '', kind: '', name: '' };
  const errs: FieldError[] = [];
  if (!ref.apiVersion || !ref.kind || !ref.name) {
    errs.push(field.invalid('spec.targetRef', ref, 'empty targetRef is not valid for PersistentPodState.'));
  }
  if (!isSupportedTarget(ref.apiVersion ?? '', ref.kind ?? '', whiteList)) {
    errs.push(field.invalid('spec.targetRef', ref, 'targetRef.Kind must be StatefulSet or in PPS_Watch_Custom_Workload_WhiteList'));
  }
  const required = spec.requiredPersistentTopology;
  if ((required === undefined || required === null) && (spec.preferredPersistentTopology ?? []).length === 0) {
    errs.push(field.invalid('spec', spec, 'TopologyConstraint and TopologyPreference cannot be empty at the same time'));
  }
  return errs;
}

export function validatePpsUpdate(pps: PersistentPodState, old: PersistentPodState): FieldError[] {
  return deepEqual(pps.spec?.targetRef ?? null, old.spec?.targetRef ?? null) ? [] : [field.forbidden('spec.targetRef', 'targetRef is immutable')];
}

/** One PersistentPodState per workload: the first other one with the same group, kind and name. */
export function validatePpsConflicts(pps: PersistentPodState, others: PersistentPodState[]): FieldError[] {
  const ref = pps.spec?.targetRef;
  if (!ref) return [];
  const other = others.find((o) => o.metadata?.name !== pps.metadata?.name && o.spec?.targetRef && sameTarget(ref, o.spec.targetRef));
  return other ? [field.invalid('spec.targetRef', ref, `targetRef is in conflict with other PersistentPodState ${other.metadata?.name}`)] : [];
}
