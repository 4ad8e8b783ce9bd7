/**
 * The "updates to <kind> spec for fields other than ... are forbidden" rule the workload webhooks
 * share: outside the listed mutable keys, the new spec must deep-equal the old one.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import type { Json } from '../../machinery/json.js';

/** `Forbidden: <message>` at `path` when `spec` and `old` differ in a key outside `mutable`. */
export function immutableExcept(path: string, spec: Json | undefined, old: Json | undefined, mutable: readonly string[], message: string): FieldError[] {
  const rest = (s: Json | undefined): Json => Object.fromEntries(Object.entries(s ?? {}).filter(([k]) => !mutable.includes(k)));
  return deepEqual(rest(spec), rest(old)) ? [] : [field.forbidden(path, message)];
}
