/**
 * Workload references (`targetRef{apiVersion, kind, name}`) compared the way Kruise does: the group
 * counts, the version does not. Used by the PodUnavailableBudget, PersistentPodState and
 * WorkloadSpread webhooks.
 */

export interface GroupVersion { group: string; version: string }

/** schema.ParseGroupVersion: `v1`, `apps/v1`, or '' / '/' (empty); more slashes are an error. */
export function parseGroupVersion(apiVersion: string): GroupVersion | Error {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** The group of an apiVersion (`apps/v1` → apps, `v1` → ""), or undefined when it does not parse. */
export function groupOf(apiVersion: string): string | undefined {
  const gv = parseGroupVersion(apiVersion);
  return gv instanceof Error ? undefined : gv.group;
}

export interface TargetRef { apiVersion?: string; kind?: string; name?: string }

/** Same group, kind and name; an unparseable apiVersion matches nothing. */
export function sameTarget(a: TargetRef, b: TargetRef): boolean {
  const ga = parseGroupVersion(a.apiVersion ?? '');
  const gb = parseGroupVersion(b.apiVersion ?? '');
  if (ga instanceof Error || gb instanceof Error) return false;
  return ga.group === gb.group && a.kind === b.kind && a.name === b.name;
}
