/**
 * ResourceDistribution validation on the hub version (pure parts): the embedded resource (a core
 * Secret or ConfigMap whose apiVersion, kind and name never change) and the target namespaces.
 */
import type { ResourceDistribution } from '../../api/kruise/ops/resourcedistribution.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { isDNS1123Label } from '../../machinery/validation/names.js';
import { groupOf } from '../common/target-ref.js';

export type EmbeddedResource = Record<string, unknown>;

export const SupportedKinds = ['Secret', 'ConfigMap'] as const;
const supportedList = `[${SupportedKinds.join(' ')}]`;

export const internalError = (path: string, detail: string): FieldError => ({ type: 'InternalError', field: path, detail });

/** The resource as the unstructured decoder sees it: an object with a kind (or a field error). */
export function decodeResource(resource: unknown, path: string): { resource?: EmbeddedResource; errors: FieldError[] } {
  if (resource === undefined || resource === null) return { errors: [field.invalid(path, null, 'empty resource is not allowed')] };
  const r = resource as EmbeddedResource;
  if (typeof r.kind !== 'string' || r.kind === '') {
    const msg = `Object 'Kind' is missing in '${JSON.stringify(resource)}'`;
    return { errors: [internalError(path, `failed to deserialize resource, please check your spec.resource, err ${msg}`)] };
  }
  return { resource: r, errors: [] };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const nameOf = (r: EmbeddedResource): string => str((r.metadata as Record<string, unknown> | undefined)?.name);

/** A core (group '') Secret or ConfigMap: `apiVersion: v1`. */
export function isSupportedResource(r: EmbeddedResource): boolean {
  return groupOf(str(r.apiVersion)) === '' && (SupportedKinds as readonly string[]).includes(str(r.kind));
}

export function validateResourceIdentity(r: EmbeddedResource, old: EmbeddedResource | undefined, path: string): FieldError[] {
  if (!isSupportedResource(r)) {
    const apiVersion = str(r.apiVersion);
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const groupKind = group ? `${str(r.kind)}.${group}` : str(r.kind);
    return [field.invalid(path, groupKind, `unknown or unsupported resource GroupKind, only support ${supportedList}`)];
  }
  if (old && (str(old.apiVersion) !== str(r.apiVersion) || str(old.kind) !== str(r.kind) || nameOf(old) !== nameOf(r))) {
    return [field.invalid(path, null, 'resource apiVersion, kind, and name are immutable')];
  }
  return [];
}

type Targets = NonNullable<ResourceDistribution['spec']>['targets'];

export function validateTargets(targets: Targets | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const included = (targets?.includedNamespaces?.list ?? []).map((n) => n.name ?? '');
  const excluded = (targets?.excludedNamespaces?.list ?? []).map((n) => n.name ?? '');
  for (const name of included) errs.push(...isDNS1123Label(name).map((m) => field.invalid(`${path}.includedNamespaces`, name, m)));
  const conflicted: string[] = [];
  for (const name of excluded) {
    errs.push(...isDNS1123Label(name).map((m) => field.invalid(`${path}.excludedNamespaces`, name, m)));
    if (included.includes(name)) conflicted.push(name);
  }
  if (conflicted.length) {
    errs.push(field.invalid(path, targets, `ambiguous targets because namespace [${conflicted.join(' ')}] is in both IncludedNamespaces.List and ExcludedNamespaces.List`));
  }
  const selector = targets?.namespaceSelector;
  try {
    selectorFromLabelSelector((selector ?? {}) as MetaLabelSelector);
  } catch (e) {
    errs.push(field.invalid(`${path}.namespaceSelector`, selector, `labelSelectorAsSelector error: ${(e as Error).message}`));
  }
  return errs;
}
