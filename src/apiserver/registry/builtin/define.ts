/**
 * Builders for the catalogue entries: a discovery record with kube-apiserver's conventions filled in
 * (listKind = kind + "List", singular = lower-case kind, all eight verbs) and the BuiltinResource
 * pairing it with a strategy.
 */
import { allVerbs, type ResourceDefinition, type ScaleMapping } from '../../../api/resource.js';
import type { BuiltinResource } from '../builtin-resource.js';
import type { ResourceStrategy } from '../strategy.js';

export interface ResourceOptions {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  status?: boolean;
  scale?: ScaleMapping;
  /** Named subresources beyond status and scale (binding, eviction, log, ...). */
  extra?: string[];
}

/** The `/scale` mapping of apps/v1 workloads: `.spec.selector` is a LabelSelector object there. */
export const replicasScale: ScaleMapping = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

export function resource(o: ResourceOptions): ResourceDefinition {
  const def: ResourceDefinition = {
    group: o.group,
    version: o.version,
    kind: o.kind,
    listKind: `${o.kind}List`,
    plural: o.plural,
    singular: o.kind.toLowerCase(),
    namespaced: o.namespaced,
    verbs: [...(o.verbs ?? allVerbs)],
  };
  if (o.shortNames?.length) def.shortNames = [...o.shortNames];
  if (o.categories?.length) def.categories = [...o.categories];
  if (o.status || o.scale || o.extra?.length) {
    def.subresources = {};
    if (o.status) def.subresources.status = true;
    if (o.scale) def.subresources.scale = { ...o.scale };
    if (o.extra?.length) def.subresources.extra = [...o.extra];
  }
  return def;
}

export function builtin(definition: ResourceDefinition, strategy: ResourceStrategy, tracksGeneration = false): BuiltinResource {
  return { definition, strategy, tracksGeneration };
}
