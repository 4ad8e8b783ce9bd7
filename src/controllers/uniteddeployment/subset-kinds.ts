/**
 * The four kinds a UnitedDeployment can generate (docs/design/uniteddeployment.md §2): which
 * template field holds them, their resource type, where their partition lives, and what their
 * status says about replicas and readiness.
 */
import type { UnitedDeployment } from '../../api/kruise/workloads/united-deployment.js';
import { AdvancedStatefulSets, CloneSets } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { Deployments, StatefulSets, type ResourceType } from '../../api/resource-type.js';

export type TemplateKey = 'statefulSetTemplate' | 'advancedStatefulSetTemplate' | 'cloneSetTemplate' | 'deploymentTemplate';

export interface SubsetKind {
  templateKey: TemplateKey;
  type: ResourceType;
  kind: string;
  /** Writes the partition into a subset workload's spec (no-op for Deployments). */
  setPartition(spec: Record<string, unknown>, partition: number): void;
  /** The partition the workload has, or undefined when it has none. */
  partitionOf(obj: KObject): number | undefined;
}

type Spec = Record<string, unknown> & { updateStrategy?: Record<string, unknown> & { rollingUpdate?: Record<string, unknown> } };

const rollingPartition: Pick<SubsetKind, 'setPartition' | 'partitionOf'> = {
  setPartition(spec, partition) {
    const s = spec as Spec;
    const strategy = (s.updateStrategy ??= {});
    if (strategy.type !== undefined && strategy.type !== 'RollingUpdate') return;
    strategy.rollingUpdate = { ...strategy.rollingUpdate, partition };
  },
  partitionOf: (obj) => (obj as KObject & { spec?: Spec }).spec?.updateStrategy?.rollingUpdate?.partition as number | undefined,
};

export const subsetKinds: SubsetKind[] = [
  { templateKey: 'statefulSetTemplate', type: StatefulSets, kind: 'StatefulSet', ...rollingPartition },
  { templateKey: 'advancedStatefulSetTemplate', type: AdvancedStatefulSets, kind: 'StatefulSet', ...rollingPartition },
  {
    templateKey: 'cloneSetTemplate', type: CloneSets, kind: 'CloneSet',
    setPartition(spec, partition) { (spec as Spec).updateStrategy = { ...(spec as Spec).updateStrategy, partition }; },
    partitionOf: (obj) => (obj as KObject & { spec?: Spec }).spec?.updateStrategy?.partition as number | undefined,
  },
  { templateKey: 'deploymentTemplate', type: Deployments, kind: 'Deployment', setPartition: () => undefined, partitionOf: () => undefined },
];

export function subsetKindOf(ud: UnitedDeployment): SubsetKind | undefined {
  const template = ud.spec?.template as Record<string, unknown> | undefined;
  return subsetKinds.find((k) => template?.[k.templateKey]);
}

export interface WorkloadCounts { replicas: number; readyReplicas: number }

export function countsOf(obj: KObject): WorkloadCounts {
  const status = (obj as KObject & { status?: { replicas?: number; readyReplicas?: number } }).status;
  return { replicas: status?.replicas ?? 0, readyReplicas: status?.readyReplicas ?? 0 };
}
