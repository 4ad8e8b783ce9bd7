/**
 * Shapes the Advanced StatefulSet controller works on: the v1beta1 set (spec always present), its
 * pods and claims as plain JSON, the feature gates it reads with their upstream defaults, and
 * small numeric helpers.
 */
import type { StatefulSet as StoredStatefulSet, StatefulSetStatus } from '../../api/kruise/workloads/statefulset.js';
import { AdvancedStatefulSets } from '../../api/kruise/resource-types.js';
import type { KObject, ObjectMeta } from '../../api/meta.js';
import { scaledValue, type IntOrPercent } from '../../machinery/int-or-percent.js';

export type { StatefulSetStatus };

/** The ASTS resource at its storage version (apps.kruise.io/v1beta1 statefulsets). */
export const StatefulSets = AdvancedStatefulSets;

/** A v1beta1 Advanced StatefulSet as the controller sees it: the schema requires spec. */
export type StatefulSet = StoredStatefulSet & { spec: NonNullable<StoredStatefulSet['spec']> };
export type StatefulSetSpec = StatefulSet['spec'];

export interface Claim extends KObject {
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
}

/** The lifecycle helpers' pod shape (nodeName typed the same way). */

/** Gates this controller reads, with OpenKruise's defaults (docs/design/workload-common.md §2). */
export const statefulSetGateDefaults = {
  StatefulSetStartOrdinal: false,
  StatefulSetAutoDeletePVC: true,
  StatefulSetAutoResizePVCGate: false,
  PodIndexLabel: true,
  PreparingUpdateAsUpdate: false,
  InPlaceUpdateEnvFromMetadata: true,
  PodUnavailableBudgetUpdateGate: false,
} as const;

export type StatefulSetGate = keyof typeof statefulSetGateDefaults;
export type GateReader = (name: StatefulSetGate) => boolean;

/** Reads `gates` (e.g. a FeatureGates' `enabled`), falling back to the defaults above. */
export function gateReader(gates?: (name: string) => boolean): GateReader {
  return gates ? (name) => gates(name) : (name) => statefulSetGateDefaults[name];
}

export type { IntOrPercent };

/** maxUnavailable of a budget: the scaled value rounded down, at least 1 (docs/design/advanced-statefulset.md §9). */
export function budgetOf(value: IntOrPercent, replicas: number, fallback = 1): number {
  return Math.max(value === undefined ? fallback : scaledValue(value, replicas, false), 1);
}

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
