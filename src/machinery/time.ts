/**
 * Kubernetes timestamps on the wire: metav1.Time is RFC 3339 in UTC with whole seconds,
 * metav1.MicroTime has exactly six fractional digits. A zero time is written as null.
 */

/** metav1.Time's wire format of an instant (epoch milliseconds or a Date). */
export function rfc3339(at: number | Date): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime's wire format: `2006-01-02T15:04:05.000000Z`. */
export function microTime(at: number | Date): string {
  return new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Milliseconds of a timestamp; undefined for a missing or unparsable one (Go's zero time). */
export function timeOf(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
