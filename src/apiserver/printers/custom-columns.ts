/**
 * Printers for custom resources from a CRD version's additionalPrinterColumns, formatted like
 * apiextensions-apiserver's table convertor: NAME first, JSONPath cells typed by the column,
 * `date` columns shown as ages, and NAME + AGE when the CRD defines no columns.
 */
import type { ColumnDefinition, TablePrinter } from '../../api/resource.js';
import { humanDuration, parseTimestamp } from './age.js';
import { creationTimestampDescription, nameColumn } from './columns.js';
import { nameOf } from './fields.js';
import { compileJsonPath, formatJsonPathValue, type JsonPath } from './jsonpath.js';

export interface AdditionalPrinterColumn {
  name: string;
  type: ColumnDefinition['type'];
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

const ageColumn: AdditionalPrinterColumn = {
  name: 'Age',
  type: 'date',
  description: creationTimestampDescription,
  jsonPath: '.metadata.creationTimestamp',
};

/** cellForJSONValue: a value of the wrong JSON type for the column prints as an empty cell. */
function typedCell(type: ColumnDefinition['type'], value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return formatJsonPathValue(value);
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = parseTimestamp(value);
      return t ? humanDuration(now.getTime() - t.getTime()) : '<invalid>';
    }
  }
}

function compileOrNull(path: string): JsonPath | null {
  try {
    return compileJsonPath(path);
  } catch {
    return null; // the CRD validator rejects such paths; a stored bad one prints empty cells
  }
}

/** A printer for a CRD version; `columns` are its additionalPrinterColumns (may be empty). */
export function crdPrinter(columns: AdditionalPrinterColumn[]): TablePrinter {
  const effective = columns.length > 0 ? columns : [ageColumn];
  const paths = effective.map((c) => compileOrNull(c.jsonPath));
  return {
    columns: [
      nameColumn(),
      ...effective.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? '',
        description: c.description ?? '',
        priority: c.priority ?? 0,
      })),
    ],
    cells(obj, now) {
      const cells: unknown[] = [nameOf(obj)];
      effective.forEach((c, i) => {
        const results = paths[i]?.(obj) ?? [];
        cells.push(results.length > 0 ? typedCell(c.type, results[0], now) : null);
      });
      return cells;
    },
  };
}
