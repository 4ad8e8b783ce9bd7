/**
 * The workload kinds of apps.kruise.io: CloneSet, Advanced StatefulSet, Advanced DaemonSet,
 * UnitedDeployment and WorkloadSpread, each served as v1alpha1 and v1beta1 (storage).
 */
import type { KindDefinition } from '../define-kind.js';
import { cloneSetKind } from './cloneset.js';
import { daemonSetKind } from './daemonset.js';
import { statefulSetKind } from './statefulset.js';
import { unitedDeploymentKind } from './united-deployment.js';
import { workloadSpreadKind } from './workload-spread.js';

export const workloadKinds: KindDefinition[] = [cloneSetKind, statefulSetKind, daemonSetKind, unitedDeploymentKind, workloadSpreadKind];

export * from './cloneset.js';
export * from './statefulset.js';
export * from './daemonset.js';
export * from './united-deployment.js';
export * from './workload-spread.js';
export * from './labels.js';
export * from './defaults.js';
export * from './schema-parts.js';
