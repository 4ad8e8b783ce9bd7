/**
 * What the API server needs to know to serve one resource: names for URLs and discovery,
 * scope, verbs and subresources. Built-in kinds and CRD versions are both described this way.
 */

export interface ScaleMapping {
  /** JSON path like `.spec.replicas`. */
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceDefinition {
  group: string;            // '' for the core group
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs: string[];
  /** Subresources served: `status`, `scale` (with mapping), and named extras such as `binding`, `eviction`, `log`. */
  subresources?: { status?: boolean; scale?: ScaleMapping; extra?: string[] };
}

export const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function groupVersion(def: { group: string; version: string }): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** A column of server-side printing (meta.k8s.io/v1 TableColumnDefinition). */
export interface ColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

export interface TablePrinter {
  columns: ColumnDefinition[];
  /** Cells after formatting, one per column; `now` is injected for age columns. */
  cells(obj: Record<string, unknown>, now: Date): unknown[];
}
