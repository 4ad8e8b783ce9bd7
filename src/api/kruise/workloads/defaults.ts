/**
 * The values OpenKruise's mutating webhooks fill into workload specs (docs/design/kruise-api.md
 * §8), as pure functions: each returns a defaulted copy. Defaults the CRDs
 * declare themselves (`default:` in the schema) are left to the API server, and pod-template
 * defaults (k8s pod defaults, imagePullPolicy Always) are the webhook's job, not these functions'.
 */
import { type CloneSet, type CloneSetV1alpha1, DefaultCloneSetMaxUnavailable } from './cloneset.js';
import { DefaultBurstReplicas, RollingUpdateType } from './daemonset.js';
import type { StatefulSet, StatefulSetV1alpha1 } from './statefulset.js';
import { PodUpdatePolicy } from './labels.js';

type IntOrString = number | string;
const isInPlace = (policy: string | undefined) => policy === PodUpdatePolicy.InPlaceIfPossible || policy === PodUpdatePolicy.InPlaceOnly;

/** replicas 1 and revisionHistoryLimit 10, shared by CloneSet, ASTS and UnitedDeployment. */
function defaultCounts(spec: { replicas?: number; revisionHistoryLimit?: number }): void {
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
}

/** v1beta1 CloneSet: RollingUpdate with a full rollingUpdate block; OnDelete gets none. */
export function defaultCloneSet(obj: CloneSet): CloneSet {
  const out = structuredClone(obj);
  const spec = (out.spec ??= {} as NonNullable<CloneSet['spec']>);
  defaultCounts(spec);
  // Go always serializes this struct, so the CRD default (enablePVCReuse: false) has a parent to fill.
  spec.scaleStrategy ??= {};
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    if (!ru.podUpdatePolicy) ru.podUpdatePolicy = PodUpdatePolicy.ReCreate;
    if (isInPlace(ru.podUpdatePolicy)) ru.inPlaceUpdateStrategy ??= {};
    ru.partition ??= 0;
    ru.maxUnavailable ??= DefaultCloneSetMaxUnavailable;
    ru.maxSurge ??= 0;
  }
  return out;
}

/** v1alpha1 CloneSet: type ReCreate and the flat update fields. */
export function defaultCloneSetV1alpha1(obj: CloneSetV1alpha1): CloneSetV1alpha1 {
  const out = structuredClone(obj);
  const spec = (out.spec ??= {} as NonNullable<CloneSetV1alpha1['spec']>);
  defaultCounts(spec);
  spec.scaleStrategy ??= {};
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = PodUpdatePolicy.ReCreate;
  if (isInPlace(strategy.type)) strategy.inPlaceUpdateStrategy ??= {};
  strategy.partition ??= 0;
  strategy.maxUnavailable ??= DefaultCloneSetMaxUnavailable;
  strategy.maxSurge ??= 0;
  return out;
}

/** Feature gates that change ASTS defaulting, with upstream defaults. */
export interface StatefulSetDefaultGates {
  /** Default PVC retention Retain/Retain (default on). */
  StatefulSetAutoDeletePVC?: boolean;
  /** Default volumeClaimUpdateStrategy.type OnDelete (default off). */
  StatefulSetAutoResizePVCGate?: boolean;
}

/** The ASTS fields both versions share (v1alpha1 lacks the gated ones, which stay untouched). */
interface StatefulSetLike {
  spec?: {
    replicas?: number;
    revisionHistoryLimit?: number;
    podManagementPolicy?: string;
    updateStrategy?: {
      type?: string;
      rollingUpdate?: { partition?: number; maxUnavailable?: IntOrString; podUpdatePolicy?: string; minReadySeconds?: number };
    };
    persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
    volumeClaimUpdateStrategy?: { type?: string };
  };
}

/** Advanced StatefulSet v1beta1. */
export function defaultStatefulSet(obj: StatefulSet, gates: StatefulSetDefaultGates = {}): StatefulSet {
  return defaultStatefulSetFields(obj, gates, false);
}

/** ASTS v1alpha1: upstream converts, defaults and converts back, so only the shared fields change. */
export function defaultStatefulSetV1alpha1(obj: StatefulSetV1alpha1): StatefulSetV1alpha1 {
  return defaultStatefulSetFields(obj, {}, true);
}

function defaultStatefulSetFields<T extends StatefulSetLike>(obj: T, gates: StatefulSetDefaultGates, v1alpha1: boolean): T {
  const out = structuredClone(obj);
  const spec = ((out as StatefulSetLike).spec ??= {});
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.partition ??= 0;
    ru.maxUnavailable ??= 1;
    if (!ru.podUpdatePolicy) ru.podUpdatePolicy = PodUpdatePolicy.ReCreate;
    ru.minReadySeconds ??= 0;
  }
  // v1alpha1 has no field for these: conversion would drop them again.
  if (!v1alpha1 && (gates.StatefulSetAutoDeletePVC ?? true)) {
    const policy = (spec.persistentVolumeClaimRetentionPolicy ??= {});
    if (!policy.whenDeleted) policy.whenDeleted = 'Retain';
    if (!policy.whenScaled) policy.whenScaled = 'Retain';
  }
  if (!v1alpha1 && gates.StatefulSetAutoResizePVCGate) {
    const vcus = (spec.volumeClaimUpdateStrategy ??= {});
    if (!vcus.type) vcus.type = 'OnDelete';
  }
  defaultCounts(spec);
  return out;
}

interface DaemonSetLike {
  spec?: {
    burstReplicas?: IntOrString;
    revisionHistoryLimit?: number;
    updateStrategy?: { type?: string; rollingUpdate?: { rollingUpdateType?: string; maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  };
}

/** Advanced DaemonSet, either version: deprecated Surging becomes Standard with surge 1 / unavailable 0. */
export function defaultDaemonSet<T extends DaemonSetLike>(obj: T): T {
  const out = structuredClone(obj);
  const spec = ((out as DaemonSetLike).spec ??= {});
  spec.burstReplicas ??= DefaultBurstReplicas;
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    if (ru.rollingUpdateType === RollingUpdateType.Surging) {
      ru.maxSurge ??= 1;
      ru.maxUnavailable ??= 0;
    }
    if (!ru.rollingUpdateType || ru.rollingUpdateType === RollingUpdateType.Surging) ru.rollingUpdateType = RollingUpdateType.Standard;
    if (ru.maxUnavailable === undefined && ru.maxSurge === undefined) {
      ru.maxUnavailable = 1;
      ru.maxSurge = 0;
    }
  }
  spec.revisionHistoryLimit ??= 10;
  return out;
}

interface UnitedDeploymentLike {
  spec?: {
    replicas?: number;
    revisionHistoryLimit?: number;
    updateStrategy?: { type?: string; manualUpdate?: { partitions?: Record<string, number> } };
    topology?: { subsets?: { replicas?: IntOrString; minReplicas?: IntOrString; maxReplicas?: IntOrString }[] };
  };
}

/** UnitedDeployment, either version: Manual updates, and minReplicas 0 when only min/max are used. */
export function defaultUnitedDeployment<T extends UnitedDeploymentLike>(obj: T): T {
  const out = structuredClone(obj);
  const spec = ((out as UnitedDeploymentLike).spec ??= {});
  defaultCounts(spec);
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'Manual';
  if (strategy.type === 'Manual') strategy.manualUpdate ??= {};
  const subsets = spec.topology?.subsets ?? [];
  const hasReplicas = subsets.some((s) => s.replicas !== undefined);
  const hasCapacity = subsets.some((s) => s.minReplicas !== undefined || s.maxReplicas !== undefined);
  if (hasCapacity && !hasReplicas) for (const s of subsets) s.minReplicas ??= 0;
  return out;
}
