/**
 * Checks of the ImagePullJob template shared by ImagePullJob and ImageListPullJob: node and pod
 * selectors, parallelism, completion policy, and one image reference. Details carry the
 * upstream error texts, which clients match on.
 */
import type { ImagePullJobSpec } from '../../api/kruise/ops/imagepulljob.js';
import { DefaultPullTimeoutSeconds } from '../../api/kruise/ops/defaults.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { normalizedReferenceError } from '../../machinery/image-reference.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';

export type PullJobTemplate = Omit<ImagePullJobSpec, 'image'>;

/** KruiseDaemon, then ImagePullJobGate: either off answers 403 before any validation. */
export function checkImagePullJobGates(input: AdmissionInput): void {
  for (const gate of ['KruiseDaemon', 'ImagePullJobGate']) {
    if (!input.gate(gate)) throw new AdmissionDenied(403, `feature-gate ${gate} is not enabled`);
  }
}

/** LabelSelectorAsSelector's complaint about a selector, if any. */
export function selectorError(selector: unknown): string | undefined {
  try {
    selectorFromLabelSelector(selector as MetaLabelSelector);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export function validateSelectors(spec: PullJobTemplate): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.selector;
  if (isSet(sel) && sel) {
    if (isSet(sel.matchLabels) || isSet(sel.matchExpressions)) {
      if (isSet(sel.names)) return [field.invalid('spec.selector', sel, 'can not set both names and labelSelector in this spec.selector')];
      const msg = selectorError(sel);
      if (msg) errs.push(field.invalid('spec.selector', sel, `invalid selector: ${msg}`));
    }
    const names = sel.names ?? [];
    if (new Set(names).size !== names.length) errs.push(field.invalid('spec.selector.names', names, 'duplicated name in selector names'));
  }
  if (isSet(spec.podSelector)) {
    if (isSet(sel)) return [...errs, field.invalid('spec.podSelector', spec.podSelector, 'can not set both selector and podSelector')];
    const msg = selectorError(spec.podSelector);
    if (msg) errs.push(field.invalid('spec.podSelector', spec.podSelector, `invalid podSelector: ${msg}`));
  }
  return errs;
}

/** Go's strconv.ParseInt(s, 10, 32) error text, or undefined when `s` parses. */
function parseInt32Error(s: string): string | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = Number(s);
  return n < -(2 ** 31) || n >= 2 ** 31 ? `strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range` : undefined;
}

/** Integers only (an int string is fine), never a percentage, never negative; 0 pauses the job. */
export function validateParallelism(value: number | string | undefined): FieldError[] {
  if (value === undefined || value === null) return [];
  const path = 'spec.parallelism';
  if (typeof value === 'string') {
    if (value.endsWith('%')) return [field.invalid(path, value, 'parallelism does not support percentage value')];
    const err = parseInt32Error(value);
    if (err) return [field.invalid(path, value, `parallelism must be a valid integer: ${err}`)];
    return Number(value) < 0 ? [field.invalid(path, value, 'parallelism must be non-negative')] : [];
  }
  return value < 0 ? [field.invalid(path, value, 'parallelism must be non-negative')] : [];
}

/** Always: the deadline must leave room for one pull attempt; Never: no deadline and no TTL. */
export function validateCompletionPolicy(spec: PullJobTemplate): FieldError[] {
  const policy = spec.completionPolicy ?? {};
  const type = policy.type ?? '';
  switch (type) {
    case 'Always': {
      const timeout = spec.pullPolicy?.timeoutSeconds ?? DefaultPullTimeoutSeconds;
      const deadline = policy.activeDeadlineSeconds;
      if (isSet(deadline) && timeout > (deadline as number)) {
        return [field.invalid('spec.completionPolicy.activeDeadlineSeconds', deadline,
          `completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default ${DefaultPullTimeoutSeconds})`)];
      }
      return [];
    }
    case 'Never':
      if (isSet(policy.activeDeadlineSeconds) || isSet(policy.ttlSecondsAfterFinished)) {
        return [field.invalid('spec.completionPolicy', policy, 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType')];
      }
      return [];
    default:
      return [field.invalid('spec.completionPolicy.type', type, `unknown type of completionPolicy: ${type}`)];
  }
}

/** One image reference at `path`: non-empty and parseable. */
export function validateImage(path: string, image: string | undefined): FieldError[] {
  if (!image) return [field.required(path, 'image can not be empty')];
  const err = normalizedReferenceError(image);
  return err ? [field.invalid(path, image, `invalid image ${image}: ${err}`)] : [];
}
