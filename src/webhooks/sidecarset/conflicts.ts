/**
 * Conflicts with the other SidecarSets that may select the same pods (namespace selectors both
 * set and disjoint, or pod selectors disjoint, mean they cannot; a canary and its base ignore
 * each other): the same init container or container name, the same volume name with another
 * definition, the same patched annotation where either side uses Overwrite.
 */
import type { KObject } from '../../api/meta.js';
import { SidecarSetBaseAnnotation, SidecarSetCanaryAnnotation } from '../../api/kruise/ops/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, items, str, stringMap, type Json } from '../../machinery/json.js';
import { selectorsOverlap } from './selector-overlap.js';

/** The base a canary SidecarSet shadows, or undefined when it is not a canary. */
export function canaryBase(obj: KObject): string | undefined {
  const a = obj.metadata?.annotations ?? {};
  return a[SidecarSetCanaryAnnotation] === 'true' && a[SidecarSetBaseAnnotation] ? a[SidecarSetBaseAnnotation] : undefined;
}

function maySharePods(a: KObject, b: KObject): boolean {
  const sa = child(a, 'spec');
  const sb = child(b, 'spec');
  if (has(sa, 'namespaceSelector') && has(sb, 'namespaceSelector') && !selectorsOverlap(sa?.namespaceSelector, sb?.namespaceSelector)) return false;
  return selectorsOverlap(sa?.selector ?? {}, sb?.selector ?? {});
}

export function sidecarSetConflicts(obj: KObject, all: KObject[]): FieldError[] {
  const name = obj.metadata.name;
  const others = all.filter((o) => o.metadata.name !== name && canaryBase(obj) !== o.metadata.name
    && canaryBase(o) !== name && maySharePods(obj, o));
  const spec = child(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const owner = (list: string, entry: string): KObject | undefined =>
    others.find((o) => items(child(o, 'spec'), list).some((c) => str(c, 'name') === entry));
  for (const list of ['initContainers', 'containers']) {
    for (const c of items(spec, list)) {
      const other = owner(list, str(c, 'name'));
      if (other) errs.push(field.invalid(`spec.${list}`, str(c, 'name'), `container ${str(c, 'name')} already exist in ${other.metadata.name}`));
    }
  }
  for (const v of items(spec, 'volumes')) {
    const other = owner('volumes', str(v, 'name'));
    const theirs = other && items(child(other, 'spec'), 'volumes').find((x) => str(x, 'name') === str(v, 'name'));
    if (other && !deepEqual(v, theirs)) errs.push(field.invalid('spec.volumes', str(v, 'name'), `volume ${str(v, 'name')} is in conflict with sidecarset ${other.metadata.name}`));
  }
  errs.push(...annotationConflicts(spec, others));
  return errs;
}

function overwritten(others: KObject[]): Map<string, { set: string; policy: string }> {
  const keys = new Map<string, { set: string; policy: string }>();
  for (const o of others) {
    for (const patch of items(child(o, 'spec'), 'patchPodMetadata')) {
      const policy = str(patch, 'patchPolicy');
      if (policy === 'Retain') continue;
      for (const key of Object.keys(stringMap(patch, 'annotations'))) keys.set(key, { set: o.metadata.name ?? '', policy });
    }
  }
  return keys;
}

function annotationConflicts(spec: Json, others: KObject[]): FieldError[] {
  const theirs = overwritten(others);
  const errs: FieldError[] = [];
  for (const patch of items(spec, 'patchPodMetadata')) {
    const policy = str(patch, 'patchPolicy');
    if (policy === 'Retain') continue;
    for (const key of Object.keys(stringMap(patch, 'annotations'))) {
      const other = theirs.get(key);
      if (other && (policy === 'Overwrite' || other.policy === 'Overwrite')) {
        errs.push(field.invalid('spec.patchPodMetadata', key, `annotation ${key} is in conflict with sidecarset ${other.set}`));
      }
    }
  }
  return errs;
}
