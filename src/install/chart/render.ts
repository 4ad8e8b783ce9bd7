/**
 * One description of the chart's objects, read two ways (docs/design/install.md §1): with concrete
 * values it gives the objects `kruise install` applies; with placeholders it gives the chart's Helm
 * templates (template-text.ts turns each placeholder into the Helm expression for that value).
 */
import type { ChartValues } from './values.js';

/** How an object description reads a value at a dotted path of ChartValues. */
export interface ValueReader {
  /** A scalar as it is (numbers, booleans, strings inside a larger string). */
  value<T = string>(path: string): T;
  /** A string that is a whole field (quoted in the template). */
  text(path: string): string;
  /** A map or list put under a key as a whole (toYaml in the template). */
  block<T = unknown>(path: string): T;
  /** Map entries merged into a map that has entries of its own. */
  mapEntries(path: string): Record<string, string>;
  /** List items appended to a list that has items of its own. */
  listItems(path: string): unknown[];
}

/** A file of the chart: objects, rendered only when its condition holds. */
export interface ChartFile {
  name: string;
  when?: Condition;
  objects: Record<string, unknown>[];
}

/** A condition as Helm evaluates it and as `kruise install` does: the same test written twice. */
export interface Condition {
  helm: string;
  holds(values: ChartValues): boolean;
}

function at(values: ChartValues, path: string): unknown {
  let v: unknown = values;
  for (const key of path.split('.')) v = (v as Record<string, unknown> | undefined)?.[key];
  return v;
}

export function concreteReader(values: ChartValues): ValueReader {
  return {
    value: <T>(path: string) => at(values, path) as T,
    text: (path) => String(at(values, path)),
    block: <T>(path: string) => structuredClone(at(values, path)) as T,
    mapEntries: (path) => structuredClone((at(values, path) ?? {}) as Record<string, string>),
    listItems: (path) => structuredClone((at(values, path) ?? []) as unknown[]),
  };
}

/** Placeholders are plain strings the YAML writer leaves intact; template-text.ts replaces them. */
export const placeholder = { value: 'V', text: 'S', block: 'B', entries: 'E', items: 'I' } as const;
const mark = (kind: string, path: string) => `@@${kind}:${path}@@`;

export const placeholderReader: ValueReader = {
  value: <T>(path: string) => mark(placeholder.value, path) as T,
  text: (path) => mark(placeholder.text, path),
  block: <T>(path: string) => mark(placeholder.block, path) as T,
  mapEntries: (path) => ({ [mark(placeholder.entries, path)]: '' }),
  listItems: (path) => [mark(placeholder.items, path)],
};

/** Rendered unless featureGates holds `setting` (e.g. `KruiseDaemon=false`): a substring test, as OpenKruise's chart does. */
export const unlessGate = (setting: string): Condition => ({
  helm: `not (contains "${setting}" .Values.featureGates)`, holds: (v) => !v.featureGates.includes(setting),
});

export const valueIsTrue = (path: string): Condition => ({ helm: `.Values.${path}`, holds: (v) => Boolean(at(v, path)) });
