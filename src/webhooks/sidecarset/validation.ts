/**
 * The checks of one SidecarSet that need nothing but the object (and its previous version):
 * name, native sidecars versus RollingUpdate, selectors, injection revision fields, update
 * strategy, sidecar containers, patchPodMetadata entries, and on update no new container names
 * and no upgradeType changes.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, items, str, stringMap, type Json } from '../../machinery/json.js';
import { intOrPercent } from '../../machinery/validation/checks.js';
import { isEmptySelector, validateLabelSelector } from '../../machinery/validation/label-selector.js';
import { validateAnnotations } from '../../machinery/validation/names.js';
import { validateAlnumDashName } from '../common/alnum-name.js';
import { validatePriorityStrategy, validateScatterStrategy } from '../common/strategy-validation.js';
import { validateSidecarContainers } from './containers.js';

export function validateSidecarSetSpec(obj: KObject): FieldError[] {
  const spec = child(obj, 'spec') ?? {};
  const updateStrategy = child(spec, 'updateStrategy') ?? {};
  const errs = validateAlnumDashName('sidecarset', obj.metadata?.name);
  for (const c of items(spec, 'initContainers')) {
    if (c.restartPolicy === 'Always' && str(updateStrategy, 'type') === 'RollingUpdate') {
      errs.push(field.required('spec.updateStrategy', 'The initContainer in-place upgrade is not currently supported.'));
    }
  }
  if (!has(spec, 'selector')) errs.push(field.required('spec.selector', 'no selector defined for SidecarSet'));
  else errs.push(...validateSidecarSetSelector(spec.selector, 'spec.selector'));
  if (has(spec, 'namespaceSelector')) errs.push(...validateSidecarSetSelector(spec.namespaceSelector, 'spec.namespaceSelector'));
  errs.push(...validateRevisionFields(child(child(spec, 'injectionStrategy'), 'revision')));
  errs.push(...validateUpdateStrategy(updateStrategy));
  errs.push(...validateSidecarContainers(spec));
  errs.push(...validatePatchPodMetadata(items(spec, 'patchPodMetadata')));
  return errs;
}

export function validateSidecarSetSelector(selector: unknown, path: string): FieldError[] {
  const errs = validateLabelSelector(selector, path);
  if (isEmptySelector(selector)) errs.push(field.invalid(path, selector, 'empty selector is not valid for sidecarset.'));
  return errs;
}

function validateRevisionFields(revision: Json | undefined): FieldError[] {
  if (!revision) return [];
  const p = 'spec.injectionStrategy.revision';
  const errs: FieldError[] = [];
  if (!str(revision, 'revisionName') && !str(revision, 'customVersion')) {
    errs.push(field.invalid(p, revision, 'revisionName and customVersion cannot be empty simultaneously'));
  }
  const policy = str(revision, 'policy');
  if (policy && policy !== 'Always' && policy !== 'Partial') {
    errs.push(field.invalid(`${p}.policy`, policy, `Invalid policy ${policy}, supported: [Always, Partial]`));
  }
  return errs;
}

/** Kruise's intStrIsSet: any string, or a non-zero integer. */
const partitionSet = (v: unknown): boolean => typeof v === 'string' || (typeof v === 'number' && v !== 0);

function validateUpdateStrategy(strategy: Json): FieldError[] {
  if (str(strategy, 'type') !== 'RollingUpdate') return [];
  const p = 'spec.updateStrategy';
  const errs: FieldError[] = [];
  if (partitionSet(strategy.partition) && has(strategy, 'selector')) {
    errs.push(field.invalid(p, strategy, 'Partition and Selector cannot be used together'));
  }
  if (has(strategy, 'selector')) errs.push(...validateSidecarSetSelector(strategy.selector, `${p}.selector`));
  errs.push(...intOrPercent(`${p}.partition`, strategy.partition), ...intOrPercent(`${p}.maxUnavailable`, strategy.maxUnavailable));
  errs.push(...validatePriorityStrategy(strategy.priorityStrategy, `${p}.priorityStrategy`));
  errs.push(...validateScatterStrategy(strategy.scatterStrategy, `${p}.scatterStrategy`));
  return errs;
}

function validatePatchPodMetadata(patches: Json[]): FieldError[] {
  const p = 'spec.patchPodMetadata';
  const errs: FieldError[] = [];
  const keys = new Set<string>();
  patches.forEach((patch, i) => {
    const annotations = stringMap(patch, 'annotations');
    if (Object.keys(annotations).length === 0) errs.push(field.required(p, 'no annotations defined for SidecarSet'));
    else errs.push(...validateAnnotations(annotations, `${p}[${i}].annotations`));
    if (!str(patch, 'patchPolicy')) errs.push(field.required(p, 'no patchPolicy defined for patchPodMetadata'));
    for (const key of Object.keys(annotations)) {
      if (keys.has(key)) errs.push(field.required(p, `patch annotation[${key}] already exist`));
      keys.add(key);
    }
  });
  return errs;
}

/** Update: containers may be removed but not added or renamed; upgradeType is fixed per container. */
export function validateSidecarSetUpdate(obj: KObject, old: KObject): FieldError[] {
  const oldTypes = new Map(items(child(old, 'spec'), 'containers').map((c) => [str(c, 'name'), str(child(c, 'upgradeStrategy'), 'upgradeType')]));
  const errs: FieldError[] = [];
  items(child(obj, 'spec'), 'containers').forEach((c, i) => {
    const name = str(c, 'name');
    const oldType = oldTypes.get(name);
    if (oldType === undefined) {
      errs.push(field.invalid(`spec.containers[${i}].name`, name, `container ${name} is not found`));
    } else if (oldType && str(child(c, 'upgradeStrategy'), 'upgradeType') !== oldType) {
      errs.push(field.invalid(`spec.containers[${i}].upgradeStrategy.upgradeType`, name, `container ${name} upgradeType is immutable`));
    }
  });
  return errs;
}
