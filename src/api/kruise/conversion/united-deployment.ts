/**
 * UnitedDeployment v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). The spec is shared except the
 * embedded cloneSetTemplate, whose spec follows the CloneSet version of the same name (converted
 * like a CloneSet, with the template metadata as its metadata). Status: v1alpha1 keeps
 * `subsetReplicas{}` and `updateStatus{updatedRevision, currentPartitions{}}`, which v1beta1 folds
 * into `subsetStatuses[].replicas/.partition` and `updatedRevision`.
 */
import type { KObject } from '../../meta.js';
import { cloneSetSpecFromHub, cloneSetSpecToHub } from './cloneset.js';
import { child, children, isObj, specOf, statusOf, type KindConversion, type MetaLike, type Obj } from './helpers.js';

type SpecConverter = (spec: Obj, meta: MetaLike) => void;

function convertCloneSetTemplate(obj: KObject, convert: SpecConverter): void {
  const template = child(child(specOf(obj), 'template'), 'cloneSetTemplate');
  const spec = child(template, 'spec');
  if (!template || !spec) return;
  const hadMeta = isObj(template.metadata);
  const meta = (hadMeta ? template.metadata : {}) as MetaLike;
  convert(spec, meta);
  if (hadMeta || Object.keys(meta).length > 0) template.metadata = meta;
}

/** Sets `field` of the named subset status (creating it) wherever it differs from the map. */
function mergeIntoSubsets(status: Obj, values: Obj | undefined, field: 'replicas' | 'partition'): void {
  if (!values) return;
  for (const [name, value] of Object.entries(values)) {
    if (!Array.isArray(status.subsetStatuses)) status.subsetStatuses = [];
    const list = status.subsetStatuses as unknown[];
    let subset = list.find((s): s is Obj => isObj(s) && s.name === name);
    if (!subset) list.push((subset = { name }));
    // Go omits zero counts, so an absent field already means 0.
    if ((subset[field] ?? 0) !== value) subset[field] = value;
  }
}

function statusToHub(status: Obj): void {
  const updateStatus = child(status, 'updateStatus');
  if (typeof updateStatus?.updatedRevision === 'string' && updateStatus.updatedRevision !== '') {
    status.updatedRevision = updateStatus.updatedRevision;
  }
  mergeIntoSubsets(status, child(status, 'subsetReplicas'), 'replicas');
  mergeIntoSubsets(status, child(updateStatus, 'currentPartitions'), 'partition');
  delete status.subsetReplicas;
  delete status.updateStatus;
}

function statusFromHub(status: Obj): void {
  const all = children(status, 'subsetStatuses');
  const named = all.filter((s) => typeof s.name === 'string' && s.name !== '');
  const perSubset = (field: string) => Object.fromEntries(named.map((s) => [s.name as string, s[field] ?? 0]));
  if (named.length > 0) status.subsetReplicas = perSubset('replicas');
  const revision = typeof status.updatedRevision === 'string' ? status.updatedRevision : '';
  if (revision !== '' || all.length > 0) {
    status.updateStatus = {
      ...(revision !== '' ? { updatedRevision: revision } : {}),
      ...(named.length > 0 ? { currentPartitions: perSubset('partition') } : {}),
    };
  }
  delete status.updatedRevision;
}

export const unitedDeploymentConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'UnitedDeployment',
  spokes: {
    v1alpha1: {
      toHub(obj) {
        convertCloneSetTemplate(obj, cloneSetSpecToHub);
        const status = statusOf(obj);
        if (status) statusToHub(status);
        return obj;
      },
      fromHub(obj) {
        convertCloneSetTemplate(obj, cloneSetSpecFromHub);
        const status = statusOf(obj);
        if (status) statusFromHub(status);
        return obj;
      },
    },
  },
};
