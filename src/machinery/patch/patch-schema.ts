/**
 * Patch metadata for built-in kinds: which lists merge (and by what key), which are sets, which are
 * atomic, and where `retainKeys` applies. It is the data behind the Go struct tags `patchStrategy` /
 * `patchMergeKey` (strategic merge patch) and `listType` / `listMapKeys` (server-side apply).
 */

export type ListType =
  /** Items are maps merged by `key` (SMP's patchMergeKey); `keys` are SSA's list-map keys when they differ. */
  | { kind: 'map'; key: string; keys?: readonly string[] }
  /** Items are scalars merged as a set. */
  | { kind: 'set' }
  /** The list is replaced whole. */
  | { kind: 'atomic' };

/**
 * A node of the table. Fields not listed get the default: maps merge key by key and lists are atomic,
 * exactly what a Go field without patch tags gets.
 */
export interface PatchSchema {
  /** Child fields of a struct. */
  readonly fields?: Readonly<Record<string, PatchSchema>>;
  /** Present when this field is a list with a merge strategy. */
  readonly list?: ListType;
  /** Schema of each item of this list. */
  readonly items?: PatchSchema;
  /** This map (or each item map of this list) uses `patchStrategy: retainKeys`. */
  readonly retainKeys?: boolean;
}

export const ATOMIC: ListType = { kind: 'atomic' };

/** The schema of field `name` inside a struct node; list nodes are stepped into first. */
export function childSchema(schema: PatchSchema | undefined, name: string): PatchSchema | undefined {
  if (!schema) return undefined;
  const node = schema.list && schema.items ? schema.items : schema;
  return node.fields && Object.prototype.hasOwnProperty.call(node.fields, name) ? node.fields[name] : undefined;
}

/**
 * The node at a field path (field names only; list items are entered implicitly), e.g.
 * `['spec', 'template', 'spec', 'containers', 'ports']`.
 */
export function schemaAt(schema: PatchSchema, path: readonly string[]): PatchSchema | undefined {
  let node: PatchSchema | undefined = schema;
  for (const name of path) node = childSchema(node, name);
  return node;
}

/** What server-side apply asks: is the list at this path a map keyed by X, a set, or atomic? */
export function listTypeAt(schema: PatchSchema, path: readonly string[]): ListType {
  return schemaAt(schema, path)?.list ?? ATOMIC;
}

/** The keys identifying a list-map item for server-side apply. */
export function listMapKeys(list: ListType): readonly string[] {
  return list.kind === 'map' ? list.keys ?? [list.key] : [];
}
