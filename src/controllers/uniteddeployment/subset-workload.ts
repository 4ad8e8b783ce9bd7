/**
 * The workload of one subset, generated from the UnitedDeployment's template (docs/design/uniteddeployment.md §2):
 * labels (template ∪ selector ∪ revision ∪ subset name), the subset-patch annotation, the
 * selector narrowed to the subset, replicas and partition, the subset's node selector ANDed into
 * every required term, its tolerations appended, then its patch merged over the pod template.
 */
import type { NodeSelectorRequirement, Toleration } from '../../api/core/index.js';
import {
  SubsetNameLabel, SubsetPatchAnnotation, UnitedDeploymentRevisionLabel, type UnitedDeployment,
} from '../../api/kruise/workloads/united-deployment.js';
import type { KObject } from '../../api/meta.js';
import { clone } from '../../machinery/deep-equal.js';
import { applyStrategicMergePatch } from '../../machinery/patch/strategic-merge-patch.js';
import { builtinPatchSchema } from '../../machinery/patch/builtin-patch-meta.js';
import type { SubsetKind } from './subset-kinds.js';

export type TopologySubset = NonNullable<NonNullable<NonNullable<UnitedDeployment['spec']>['topology']>['subsets']>[number];

type Template = { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
type PodTemplate = { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> & { tolerations?: Toleration[]; affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: { matchExpressions?: NodeSelectorRequirement[] }[] } } } } };

export interface SubsetWorkloadInput {
  ud: UnitedDeployment;
  kind: SubsetKind;
  subset: TopologySubset;
  revision: string;
  replicas: number;
  partition: number;
}

function placeInSubset(pod: PodTemplate, subset: TopologySubset): void {
  const spec = (pod.spec ??= {});
  const expressions = ((subset.nodeSelectorTerm as { matchExpressions?: NodeSelectorRequirement[] } | undefined)?.matchExpressions ?? []);
  if (expressions.length > 0) {
    const required = (((spec.affinity ??= {}).nodeAffinity ??= {}).requiredDuringSchedulingIgnoredDuringExecution ??= {});
    const terms = required.nodeSelectorTerms?.length ? required.nodeSelectorTerms : [{}];
    required.nodeSelectorTerms = terms.map((t) => ({ ...t, matchExpressions: [...(t.matchExpressions ?? []), ...expressions] }));
  }
  const tolerations = (subset.tolerations ?? []) as unknown as Toleration[];
  if (tolerations.length > 0) spec.tolerations = [...(spec.tolerations ?? []), ...tolerations];
}

export function buildSubsetWorkload(input: SubsetWorkloadInput): KObject {
  const { ud, kind, subset, revision } = input;
  const template = clone((ud.spec!.template as Record<string, Template>)[kind.templateKey]);
  const selectorLabels = (ud.spec!.selector as { matchLabels?: Record<string, string> }).matchLabels ?? {};
  const spec = clone(template.spec ?? {}) as Record<string, unknown> & { template?: PodTemplate };
  const selector = clone(ud.spec!.selector) as { matchLabels?: Record<string, string> };
  spec.selector = { ...selector, matchLabels: { ...selector.matchLabels, [SubsetNameLabel]: subset.name } };
  spec.replicas = input.replicas;
  let pod: PodTemplate = spec.template ?? {};
  pod.metadata = { ...pod.metadata, labels: { ...pod.metadata?.labels, [SubsetNameLabel]: subset.name, [UnitedDeploymentRevisionLabel]: revision } };
  placeInSubset(pod, subset);
  if (subset.patch !== undefined && subset.patch !== null) pod = applyStrategicMergePatch(pod, subset.patch, builtinPatchSchema('', 'Pod')) as PodTemplate;
  spec.template = pod;
  kind.setPartition(spec, input.partition);
  const prefix = `${ud.metadata.name}-${subset.name}-`;
  return {
    apiVersion: `${kind.type.group}/${kind.type.version}`, kind: kind.type.kind,
    metadata: {
      generateName: /^[a-z0-9]([-a-z0-9]*)?$/.test(prefix) && prefix.length <= 243 ? prefix : `${ud.metadata.name}-`,
      namespace: ud.metadata.namespace,
      labels: { ...template.metadata?.labels, ...selectorLabels, [UnitedDeploymentRevisionLabel]: revision, [SubsetNameLabel]: subset.name },
      annotations: { ...template.metadata?.annotations, [SubsetPatchAnnotation]: subset.patch === undefined || subset.patch === null ? '' : JSON.stringify(subset.patch) },
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'UnitedDeployment', name: ud.metadata.name!, uid: ud.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec,
  };
}
