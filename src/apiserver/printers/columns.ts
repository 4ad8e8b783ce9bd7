/**
 * Column definition builders shared by the built-in printers, with the ObjectMeta descriptions
 * the upstream printers reuse for NAME and AGE.
 */
import type { ColumnDefinition, TablePrinter } from '../../api/resource.js';

export const nameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources ' +
  'may allow a client to request the generation of an appropriate name automatically. Name is primarily ' +
  'intended for creation idempotence and configuration definition. Cannot be updated. More info: ' +
  'https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

export const creationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not ' +
  'guaranteed to be set in happens-before order across separate operations. Clients may not set this value. ' +
  'It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. ' +
  'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

type ColumnType = ColumnDefinition['type'];

/** A priority-0 column (always printed). */
export function col(name: string, type: ColumnType, description: string): ColumnDefinition {
  return { name, type, format: '', description, priority: 0 };
}

/** A priority-1 column (printed only with `-o wide`). */
export function wide(name: string, type: ColumnType, description: string): ColumnDefinition {
  return { name, type, format: '', description, priority: 1 };
}

export function nameColumn(priority = 0): ColumnDefinition {
  return { name: 'Name', type: 'string', format: 'name', description: nameDescription, priority };
}

export function ageColumn(): ColumnDefinition {
  return col('Age', 'string', creationTimestampDescription);
}

export const containersColumn = (): ColumnDefinition =>
  wide('Containers', 'string', 'Names of each container in the template.');
export const imagesColumn = (): ColumnDefinition =>
  wide('Images', 'string', 'Images referenced by each container in the template.');
export const selectorColumn = (description: string): ColumnDefinition => wide('Selector', 'string', description);

/** A printer from its columns and a function producing one cell per column (wide ones included). */
export function printer(
  columns: ColumnDefinition[],
  cells: (obj: Record<string, unknown>, now: Date) => unknown[],
): TablePrinter {
  return { columns, cells };
}
