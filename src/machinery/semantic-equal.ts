/**
 * Equality of two JSON objects as kube-apiserver sees them after decoding into Go structs: a
 * member that is absent equals one holding its Go zero value (`null`, `{}`, `[]`, `""`, `0`,
 * `false`), because both decode to the same struct. Go clients resend such zero values for
 * fields without `omitempty` (`resources: {}`), other clients send `""` or `[]` for omitted ones.
 * Immutability checks compare with this (docs/design/apiserver.md §10).
 */

/** A value Go decodes to the zero value of its field. */
export function isGoZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as object).every(isGoZero);
  return false;
}

/** Structural equality where object members holding Go zero values count as absent. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const aObj = typeof a === 'object' && a !== null;
  const bObj = typeof b === 'object' && b !== null;
  if (!aObj || !bObj) return isGoZero(a) && isGoZero(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return isGoZero(a) && isGoZero(b);
    return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!semanticEqual(ao[k], bo[k])) return false;
  }
  return true;
}
