/** StatefulSet PVC retention: whenDeleted and whenScaled each Retain or Delete (ASTS and UD templates). */
import { field, type FieldError } from '../../machinery/errors.js';
import type { Json } from '../../machinery/json.js';

export function validateRetentionPolicy(policy: Json | undefined, path: string): FieldError[] {
  if (!policy) return [];
  const errs: FieldError[] = [];
  for (const key of ['whenDeleted', 'whenScaled']) {
    const value = policy[key] ?? '';
    if (value !== 'Retain' && value !== 'Delete') errs.push(field.notSupported(`${path}.${key}`, value, ['Retain', 'Delete']));
  }
  return errs;
}
