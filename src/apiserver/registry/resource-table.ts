/**
 * The set of resources currently served, looked up by group/version/plural (URL routing),
 * by group/kind (apiVersion+kind in bodies) and listed per group-version for discovery.
 * CRDs add and remove entries at run time; `changed` lets discovery and OpenAPI caches refresh.
 */
import type { ServedResource } from './served-resource.js';
import { compareStrings } from '../../machinery/order.js';

export class ResourceTable {
  private readonly byGvr = new Map<string, ServedResource>();
  private generation = 0;

  /** Bumped on every change, for caches of discovery and OpenAPI documents. */
  get version(): number {
    return this.generation;
  }

  add(resource: ServedResource): void {
    const d = resource.definition;
    this.byGvr.set(gvrKey(d.group, d.version, d.plural), resource);
    this.generation++;
  }

  removeWhere(predicate: (r: ServedResource) => boolean): void {
    for (const [key, r] of this.byGvr) if (predicate(r)) this.byGvr.delete(key);
    this.generation++;
  }

  lookup(group: string, version: string, plural: string): ServedResource | undefined {
    return this.byGvr.get(gvrKey(group, version, plural));
  }

  lookupKind(group: string, version: string, kind: string): ServedResource | undefined {
    for (const r of this.byGvr.values()) {
      const d = r.definition;
      if (d.group === group && d.version === version && d.kind === kind) return r;
    }
    return undefined;
  }

  all(): ServedResource[] {
    return [...this.byGvr.values()];
  }

  /** Every version of the same stored resource (e.g. to learn CRD versions or storage). */
  versionsOf(storagePrefix: string): ServedResource[] {
    return this.all().filter((r) => r.storagePrefix === storagePrefix);
  }

  /** Group -> versions (sorted by Kubernetes version priority) -> resources. */
  groups(): Map<string, Map<string, ServedResource[]>> {
    const groups = new Map<string, Map<string, ServedResource[]>>();
    for (const r of this.byGvr.values()) {
      const { group, version } = r.definition;
      const versions = groups.get(group) ?? new Map<string, ServedResource[]>();
      groups.set(group, versions);
      const list = versions.get(version) ?? [];
      versions.set(version, list);
      list.push(r);
    }
    for (const [group, versions] of groups) {
      const sorted = [...versions.keys()].sort(compareKubeVersions);
      groups.set(group, new Map(sorted.map((v) => [v, versions.get(v)!.sort((a, b) => compareStrings(a.definition.plural, b.definition.plural))])));
    }
    return groups;
  }
}

function gvrKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}

const versionPattern = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Kubernetes version priority: GA > beta > alpha, higher numbers first, non-matching last alphabetically. */
export function compareKubeVersions(a: string, b: string): number {
  const ma = versionPattern.exec(a);
  const mb = versionPattern.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : compareStrings(a, b);
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (ma[1] !== mb[1]) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}
