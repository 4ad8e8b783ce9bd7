/**
 * What one signed-in user may see (docs/design/dashboard.md §11). The watches run with the backend's
 * identity; the rows sent to a session pass this filter. For each resource the page shows, the
 * checker (access-checks.ts) answers whether the user may `list` it in every namespace, and when not,
 * in which of the cluster's namespaces; cluster-scoped rows (nodes, SidecarSets, namespaces) need the
 * cluster-wide right (a namespace also shows when the user may see something in it).
 */
import type { ResourceType } from '../api/resource-type.js';
import type { DashboardUser } from './auth.js';
import type { AccessChecker } from './access-checks.js';
import { namespacedFamilies, type Family } from './summaries.js';
import { shownTypes } from './watches.js';

/** Per resource (`family/kind`): every namespace, or these. */
export interface Visibility { all: boolean; byResource: Map<string, true | Set<string>>; namespaces: Set<string> }

const kruiseRenamed = new Set(['StatefulSet', 'DaemonSet']);
/** The `kind` a row of `type` carries (summaries.ts names Kruise's StatefulSet AdvancedStatefulSet). */
const rowKind = (t: ResourceType) => (t.group === 'apps.kruise.io' && kruiseRenamed.has(t.kind) ? `Advanced${t.kind}` : t.kind);
const kinded = new Set<Family>(['workloads', 'jobs', 'others']);
const resourceKey = (family: Family, kind: string) => (kinded.has(family) ? `${family}/${kind}` : family);

export async function visibilityOf(check: AccessChecker, namespaces: string[]): Promise<Visibility> {
  const byResource = new Map<string, true | Set<string>>();
  const narrower: { family: Family; type: ResourceType }[] = [];
  await Promise.all(shownTypes.map(async (t) => {
    if (await check.everywhere(t.type)) byResource.set(resourceKey(t.family, rowKind(t.type)), true);
    else if (t.type.namespaced) narrower.push(t);
  }));
  for (const t of narrower) byResource.set(resourceKey(t.family, rowKind(t.type)), new Set());
  if (narrower.length > 0) {
    await Promise.all(namespaces.map(async (ns) => {
      const allowed = await check.inNamespace(ns, narrower.map((t) => t.type));
      for (const t of narrower) if (allowed.has(t.type)) (byResource.get(resourceKey(t.family, rowKind(t.type))) as Set<string>).add(ns);
    }));
  }
  const all = [...byResource.values()].every((v) => v === true) && byResource.size === shownTypes.length;
  const visible = new Set<string>();
  for (const v of byResource.values()) if (v !== true) for (const ns of v) visible.add(ns);
  return { all, byResource, namespaces: visible };
}

/** Whether the user may list pods in `namespace` (every namespace when absent). */
export function seesPods(v: Visibility, namespace?: string): boolean {
  const pods = v.byResource.get('pods');
  return pods === true || (pods !== undefined && (namespace === undefined ? pods.size > 0 : pods.has(namespace)));
}

export function rowVisible(v: Visibility, family: Family, row: { kind?: string; ns?: string; name?: string }): boolean {
  if (v.all) return true;
  if (family === 'namespaces') return v.byResource.get('namespaces') === true || v.namespaces.has(row.name ?? '');
  const allowed = v.byResource.get(resourceKey(family, row.kind ?? ''));
  if (allowed === true) return true;
  return namespacedFamilies.has(family) && allowed !== undefined && allowed.has(row.ns ?? '');
}

/** The namespace in a row key (`kind/ns/name` or `ns/name`, see rowKey). */
export const keyNamespace = (family: Family, key: string) => key.split('/')[kinded.has(family) ? 1 : 0];

/** `rowVisible` for a deleted row's key. */
export function keyVisible(v: Visibility, family: Family, key: string): boolean {
  if (v.all) return true;
  if (kinded.has(family)) return rowVisible(v, family, { kind: key.split('/')[0], ns: keyNamespace(family, key) });
  return namespacedFamilies.has(family) ? rowVisible(v, family, { ns: keyNamespace(family, key) }) : rowVisible(v, family, { name: key });
}

/** Visibilities for a few seconds per user, so a page's requests do not each ask again. */
export class VisibilityCache {
  private readonly entries = new Map<string, { at: number; v: Promise<Visibility> }>();
  constructor(private readonly checkerFor: (user: DashboardUser) => AccessChecker, private readonly namespaces: () => string[], private readonly ttlMs = 10_000) {}

  get(user: DashboardUser, fresh = false): Promise<Visibility> {
    const key = JSON.stringify([user.username, user.groups, user.extra ?? {}, user.kubeconfig ?? false, user.token ?? '']);
    const hit = this.entries.get(key);
    if (hit && !fresh && Date.now() - hit.at < this.ttlMs) return hit.v;
    const v = visibilityOf(this.checkerFor(user), this.namespaces());
    this.entries.set(key, { at: Date.now(), v });
    v.catch(() => this.entries.delete(key));
    return v;
  }
}

/** The part of a snapshot or delta the user may see. */
export function filterRows<T>(v: Visibility, rows: Partial<Record<Family, T[]>>, visible: (family: Family, item: T) => boolean): Partial<Record<Family, T[]>> {
  if (v.all) return rows;
  return Object.fromEntries(Object.entries(rows).map(([f, list]) => [f, (list ?? []).filter((item) => visible(f as Family, item))])) as Partial<Record<Family, T[]>>;
}
