/**
 * Ages as kubectl prints them: the two-or-three significant figures of apimachinery's
 * duration.HumanDuration ("5s", "3m20s", "5m", "3h4m", "3d4h", "2y30d").
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Formats a duration in milliseconds; a clock skew of up to 2s reads as "0s", more as "<invalid>". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** Parses an RFC 3339 timestamp; undefined when absent or unparsable. */
export function parseTimestamp(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** Age of a timestamp at `now`, or "<unknown>" when it is missing (translateTimestampSince). */
export function ageSince(timestamp: unknown, now: Date): string {
  const t = parseTimestamp(timestamp);
  return t ? humanDuration(now.getTime() - t.getTime()) : '<unknown>';
}
