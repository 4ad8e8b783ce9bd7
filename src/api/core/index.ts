/**
 * The built-in Kubernetes kinds (core/v1, apps/v1, batch/v1, coordination/v1, policy/v1, ...) as
 * plain JSON, declared once for the whole code base. The interfaces are generated from the upstream
 * models (hack/gen-core-types.mjs); this module adds the names the code uses for enumerations and
 * value types. Fields required on every stored object (a Pod's spec) are required here.
 */
export * from './generated/types.gen.js';
import type { PodCondition, PodStatus, Taint } from './generated/types.gen.js';

export type ConditionStatus = PodCondition['status'];
export type PodPhase = NonNullable<PodStatus['phase']>;
export type TaintEffect = Taint['effect'];
/** A resource quantity as read from the API server ("100m", "1Gi"); numbers are accepted on write. */
export type Quantity = string;
export type ResourceList = Record<string, Quantity>;
export type IntOrString = number | string;
