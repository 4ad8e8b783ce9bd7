/**
 * String-level name checks with Kubernetes' exact messages (apimachinery util/validation), and the
 * map-level checks built on them (labels, annotations). Each check returns the list of problems as
 * detail strings; the empty list means valid. Lengths are in UTF-8 bytes, as Go's len() counts them.
 */
import type { ObjectMeta, OwnerReference } from '../../api/meta.js';
import { field, type FieldError } from '../errors.js';

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Go's RegexError: note the doubled space after each example's comma, as upstream prints it. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}
const maxLenError = (n: number): string => `must be no more than ${n} characters`;
const EMPTY_ERROR = 'must be non-empty';

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a valid label can only be wrong because of its dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/** Label keys, annotation keys and finalizers: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`
      + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

export function isValidPathSegmentPrefix(name: string): string[] {
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

export type NameValidator = 'subdomain' | 'label' | 'path-segment';

/**
 * A ValidateNameFunc. With `prefix` (a generateName) a trailing dash is allowed, masked the way
 * upstream does it (which also drops the character before the dash).
 */
export function validateName(kind: NameValidator, name: string, prefix = false): string[] {
  if (kind === 'path-segment') return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
  const masked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
  return kind === 'label' ? isDNS1123Label(masked) : isDNS1123Subdomain(masked);
}

/** ValidateLabels: every problem is reported at the map's path, as upstream does. */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(field.invalid(path, k, msg));
    for (const msg of isValidLabelValue(String(v))) errs.push(field.invalid(path, v, msg));
  }
  return errs;
}

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    // Annotation keys are qualified names, except that case does not matter.
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(path, k, msg));
    total += byteLength(k) + byteLength(String(v));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(field.tooLong(path, undefined, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

export interface ObjectMetaRules {
  namespaced: boolean;
  nameValidator: NameValidator;
}

/** ValidateObjectMeta for create and update: name, namespace, generation, labels, annotations, owners, finalizers. */
export function validateObjectMeta(meta: ObjectMeta | undefined, rules: ObjectMetaRules, path = 'metadata'): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  if (m.generateName) {
    for (const msg of validateName(rules.nameValidator, m.generateName, true)) errs.push(field.invalid(`${path}.generateName`, m.generateName, msg));
  }
  if (!m.name) errs.push(field.required(`${path}.name`, 'name or generateName is required'));
  else for (const msg of validateName(rules.nameValidator, m.name)) errs.push(field.invalid(`${path}.name`, m.name, msg));
  if (rules.namespaced) {
    if (!m.namespace) errs.push(field.required(`${path}.namespace`));
    else for (const msg of isDNS1123Label(m.namespace)) errs.push(field.invalid(`${path}.namespace`, m.namespace, msg));
  } else if (m.namespace) {
    errs.push(field.forbidden(`${path}.namespace`, 'not allowed on this type'));
  }
  if (typeof m.generation === 'number' && m.generation < 0) {
    errs.push(field.invalid(`${path}.generation`, m.generation, 'must be greater than or equal to 0'));
  }
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(m.finalizers, `${path}.finalizers`));
  return errs;
}

function ownerReferenceErrors(ref: OwnerReference, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // schema.FromAPIVersionAndKind: "group/version" or "version"; anything else has no version.
  const parts = (ref.apiVersion ?? '').split('/');
  const version = parts.length <= 2 ? parts[parts.length - 1] : '';
  const group = parts.length === 2 ? parts[0] : '';
  if (!version) errs.push(field.invalid(`${path}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'));
  if (!ref.kind) errs.push(field.invalid(`${path}.kind`, ref.kind ?? '', 'must not be empty'));
  if (!ref.name) errs.push(field.invalid(`${path}.name`, ref.name ?? '', 'must not be empty'));
  if (!ref.uid) errs.push(field.invalid(`${path}.uid`, ref.uid ?? '', 'must not be empty'));
  if (group === '' && version === 'v1' && ref.kind === 'Event') {
    errs.push(field.invalid(path, ref, '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...ownerReferenceErrors(ref, path));
    if (ref.controller !== true) continue;
    const current = `${ref.kind}/${ref.name}`;
    if (!firstController) firstController = current;
    else errs.push(field.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
  }
  return errs;
}

export function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const list = finalizers ?? [];
  const errs: FieldError[] = [];
  for (const f of list) for (const msg of isQualifiedName(f)) errs.push(field.invalid(path, f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(field.invalid(path, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}
