/**
 * ValidatePodUpdate: a pod spec is immutable except for container images, activeDeadlineSeconds
 * (set or lowered), added tolerations, removed scheduling gates and a negative grace period set to 1.
 * Anything else is refused with upstream's "pod updates may not change fields other than ..." text.
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import { child, items, num, str, type Json } from '../../../machinery/json.js';

export const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

export function validatePodUpdate(pod: KObject, old: KObject): FieldError[] {
  const spec = child(pod, 'spec') ?? {};
  const oldSpec = child(old, 'spec') ?? {};
  const errs: FieldError[] = [];
  for (const list of ['containers', 'initContainers']) {
    const next = items(spec, list);
    if (next.length !== items(oldSpec, list).length) return [field.forbidden(`spec.${list}`, 'pod updates may not add or remove containers')];
    next.forEach((c, i) => {
      const image = str(c, 'image');
      if (image.trim() !== image) errs.push(field.invalid(`spec.${list}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    });
  }
  errs.push(...validateDeadlineUpdate(num(spec, 'activeDeadlineSeconds'), num(oldSpec, 'activeDeadlineSeconds')));
  errs.push(...validateOnlyAddedTolerations(items(spec, 'tolerations'), items(oldSpec, 'tolerations')));
  errs.push(...validateOnlyDeletedGates(items(spec, 'schedulingGates'), items(oldSpec, 'schedulingGates')));
  if (semanticEqual(spec, oldSpec)) return errs;
  const munged = mungeUpdatable(spec, oldSpec);
  if (!semanticEqual(munged, oldSpec)) {
    errs.push(field.forbidden('spec', `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n${specDiff(oldSpec, munged)}`));
  }
  return errs;
}

/**
 * The new spec with every field that may change replaced by the old value. It is only compared, never
 * stored, so it shares everything it does not replace with `spec` and `oldSpec` (no deep copy per update:
 * docs/design/performance.md §9).
 */
function mungeUpdatable(spec: Json, oldSpec: Json): Json {
  const munged: Json = { ...spec };
  for (const list of ['containers', 'initContainers']) {
    const olds = items(oldSpec, list);
    if (Array.isArray(spec[list])) munged[list] = items(spec, list).map((c, i) => ({ ...c, image: olds[i]?.image }));
  }
  // ephemeral containers change only through their own subresource (validateEphemeralContainersUpdate)
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations', 'ephemeralContainers']) restore(munged, oldSpec, key);
  const oldGrace = num(oldSpec, 'terminationGracePeriodSeconds');
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (items(oldSpec, 'schedulingGates').length > 0) mungeGatedNodeSelector(munged, oldSpec);
  return munged;
}

function restore(target: Json, source: Json, key: string): void {
  if (source[key] === undefined) delete target[key];
  else target[key] = source[key];
}

/** A gated pod may gain nodeSelector entries (never lose or change one). */
function mungeGatedNodeSelector(munged: Json, oldSpec: Json): void {
  const next = child(munged, 'nodeSelector') ?? {};
  const old = child(oldSpec, 'nodeSelector') ?? {};
  if (Object.entries(old).every(([k, v]) => next[k] === v)) restore(munged, oldSpec, 'nodeSelector');
}

function validateDeadlineUpdate(next: number | undefined, old: number | undefined): FieldError[] {
  const path = 'spec.activeDeadlineSeconds';
  if (next === undefined) return old === undefined ? [] : [field.invalid(path, null, 'must not update from a positive integer to nil value')];
  if (old !== undefined && next > old) return [field.invalid(path, next, 'must be less than or equal to previous value')];
  return [];
}

function validateOnlyAddedTolerations(next: Json[], old: Json[]): FieldError[] {
  const withoutSeconds = (t: Json) => { const { tolerationSeconds: _s, ...rest } = t; return rest; };
  for (const o of old) {
    if (!next.some((n) => semanticEqual(withoutSeconds(n), withoutSeconds(o)))) {
      return [field.forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
    }
  }
  return [];
}

function validateOnlyDeletedGates(next: Json[], old: Json[]): FieldError[] {
  const oldNames = new Set(old.map((g) => str(g, 'name')));
  return next.filter((g) => !oldNames.has(str(g, 'name')))
    .map((g) => field.forbidden('spec.schedulingGates', `only deletion is allowed, but found new scheduling gate '${str(g, 'name')}'`));
}

/** A short cmp.Diff-like rendering of the changed PodSpec fields (upstream appends Go's diff). */
function specDiff(old: Json, next: Json): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  const goName = (k: string) => (k === 'serviceAccount' ? 'DeprecatedServiceAccount' : k[0].toUpperCase() + k.slice(1));
  const lines = ['  core.PodSpec{'];
  let identical = 0;
  for (const k of keys) {
    if (semanticEqual(old[k], next[k])) { identical++; continue; }
    if (old[k] !== undefined) lines.push(`- \t${goName(k)}: ${JSON.stringify(old[k])},`);
    if (next[k] !== undefined) lines.push(`+ \t${goName(k)}: ${JSON.stringify(next[k])},`);
  }
  if (identical > 0) lines.splice(1, 0, `  \t... // ${identical} identical fields`);
  lines.push('  }');
  return lines.join('\n');
}

/** pods/ephemeralcontainers: existing ephemeral containers may be neither removed nor changed. */
export function validateEphemeralContainersUpdate(pod: KObject, old: KObject): FieldError[] {
  const path = 'spec.ephemeralContainers';
  const next = new Map(items(child(pod, 'spec'), 'ephemeralContainers').map((c) => [str(c, 'name'), c]));
  const errs: FieldError[] = [];
  for (const o of items(child(old, 'spec'), 'ephemeralContainers')) {
    const name = str(o, 'name');
    const n = next.get(name);
    if (!n) errs.push(field.forbidden(path, `existing ephemeral containers "${name}" may not be removed\n`));
    else if (!semanticEqual(n, o)) errs.push(field.forbidden(path, `existing ephemeral containers "${name}" may not be changed\n`));
  }
  return errs;
}
