/**
 * Builds meta.k8s.io/v1 Table responses (server-side printing) from a printer and objects,
 * with `row.object` as PartialObjectMetadata, the full object or nothing (includeObject).
 */
import type { KObject } from '../../api/meta.js';
import type { TablePrinter } from '../../api/resource.js';
import { creationTimestampDescription, nameColumn } from './columns.js';
import { parseTimestamp } from './age.js';
import { createdAt, nameOf } from './fields.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  includeObject: IncludeObject;
  now: Date;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  /** False for watch events after the first: upstream then sends `columnDefinitions: null`. */
  withColumns: boolean;
}

/** A Table row condition (`Completed` for finished pods); optional on printers. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** A printer that may also report row conditions; TablePrinter stays the shared contract. */
export interface ConditionalPrinter extends TablePrinter {
  conditions?(obj: Record<string, unknown>): TableRowCondition[] | undefined;
}

/**
 * The printer of resources without a dedicated one (Role, ClusterRole, CRDs...): NAME and
 * CREATED AT, an RFC 3339 timestamp, as the apiserver's default table convertor prints them.
 */
export const defaultPrinter: TablePrinter = {
  columns: [nameColumn(), { name: 'Created At', type: 'date', format: '', description: creationTimestampDescription, priority: 0 }],
  cells(obj) {
    const t = parseTimestamp(createdAt(obj));
    return [nameOf(obj), t ? t.toISOString().replace(/\.\d{3}Z$/, 'Z') : null];
  },
};

function rowObject(obj: KObject, include: IncludeObject): Record<string, unknown> | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

function tableMetadata(options: TableOptions): Record<string, unknown> {
  const md: Record<string, unknown> = {};
  if (options.resourceVersion) md.resourceVersion = options.resourceVersion;
  if (options.continue) md.continue = options.continue;
  if (options.remainingItemCount !== undefined) md.remainingItemCount = options.remainingItemCount;
  return md;
}

/** One Table for a list (or a single object passed as a one-element list). */
export function buildTable(printer: TablePrinter, objects: KObject[], options: TableOptions): Record<string, unknown> {
  const conditional = printer as ConditionalPrinter;
  const rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: printer.cells(obj, options.now) };
    const conditions = conditional.conditions?.(obj);
    if (conditions && conditions.length > 0) row.conditions = conditions;
    const object = rowObject(obj, options.includeObject);
    if (object) row.object = object;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: tableMetadata(options),
    columnDefinitions: options.withColumns ? printer.columns : null,
    rows,
  };
}
