/**
 * Cell formats shared by several printers: label maps, label selectors, container name/image
 * lists and PV access modes, written to match the strings kubectl users know.
 */
import { asArray, asObject, asString, type JsonObject } from './fields.js';

/** labels.FormatLabels: `k=v` sorted by key and comma-joined, or `<none>`. */
export function formatLabels(value: unknown): string {
  const map = asObject(value);
  const keys = Object.keys(map).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${asString(map[k])}`).join(',');
}

interface Requirement {
  key: string;
  text: string;
}

function requirementOf(expr: JsonObject): Requirement | undefined {
  const key = asString(expr.key);
  const values = asArray(expr.values).map(asString).sort();
  switch (asString(expr.operator)) {
    case 'In':
      return { key, text: `${key} in (${values.join(',')})` };
    case 'NotIn':
      return { key, text: `${key} notin (${values.join(',')})` };
    case 'Exists':
      return { key, text: key };
    case 'DoesNotExist':
      return { key, text: `!${key}` };
    default:
      return undefined;
  }
}

/**
 * metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key. Returns undefined for
 * an invalid selector (unknown operator) so callers can print their own marker.
 */
export function selectorString(selector: unknown): string | undefined {
  if (selector === undefined || selector === null) return '';
  const sel = asObject(selector);
  const reqs: Requirement[] = [];
  const labels = asObject(sel.matchLabels);
  for (const key of Object.keys(labels)) reqs.push({ key, text: `${key}=${asString(labels[key])}` });
  for (const expr of asArray(sel.matchExpressions)) {
    const req = requirementOf(asObject(expr));
    if (!req) return undefined;
    reqs.push(req);
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}

/** metav1.FormatLabelSelector: like selectorString, with `<none>` and `<error>` markers. */
export function formatLabelSelector(selector: unknown): string {
  const s = selectorString(selector);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}

/** Comma-joined container names and images of a pod spec (layoutContainerCells). */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = asArray(asObject(podSpec).containers).map(asObject);
  return [containers.map((c) => asString(c.name)).join(','), containers.map((c) => asString(c.image)).join(',')];
}

const accessModeShort: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** helper.GetAccessModesAsString: short names in a fixed order, duplicates removed. */
export function accessModes(value: unknown): string {
  const modes = new Set(asArray(value).map(asString));
  return accessModeShort.filter(([long]) => modes.has(long)).map(([, short]) => short).join(',');
}

/** `kind.group/name` lower-cased, as printers show owner references. */
export function groupKindName(apiVersion: string, kind: string, name: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
  if (!kind) return name;
  const gk = group ? `${kind}.${group}` : kind;
  return `${gk.toLowerCase()}/${name}`;
}
