/**
 * Standard 5-field cron schedules as the CronJob controller reads them (robfig/cron's ParseStandard):
 * minute hour day-of-month month day-of-week, each a comma list of `*`, `?`, `a`, `a-b`, with an
 * optional `/step`; month and weekday names (JAN, MON ...); the @yearly ... @hourly descriptors and
 * `@every <duration>`. Day-of-month and day-of-week are OR'ed unless either one is unrestricted.
 */

export interface CronFields {
  kind: 'fields';
  minute: ReadonlySet<number>;
  hour: ReadonlySet<number>;
  dayOfMonth: ReadonlySet<number>;
  month: ReadonlySet<number>;
  dayOfWeek: ReadonlySet<number>;
  /** `*` or `?` (without a step) in day-of-month / day-of-week: the field does not restrict days. */
  dayOfMonthStar: boolean;
  dayOfWeekStar: boolean;
}

/** `@every 1h30m`: fixed intervals from the previous time. */
export interface CronEvery {
  kind: 'every';
  intervalMs: number;
}

export type CronSchedule = CronFields | CronEvery;

interface Bounds { min: number; max: number; names?: readonly string[] }

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const BOUNDS: Bounds[] = [
  { min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS }, { min: 0, max: 6, names: DAYS },
];

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a schedule; throws an Error whose message says what is wrong (shown in events). */
export function parseCronSchedule(spec: string): CronSchedule {
  const text = spec.trim();
  if (text.startsWith('@every ')) return { kind: 'every', intervalMs: parseDuration(text.slice(7).trim()) };
  if (text.startsWith('@')) {
    const expansion = DESCRIPTORS[text];
    if (!expansion) throw new Error(`unrecognized descriptor: ${text}`);
    return parseCronSchedule(expansion);
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const parsed = fields.map((f, i) => parseField(f, BOUNDS[i]!));
  return {
    kind: 'fields',
    minute: parsed[0]!.values, hour: parsed[1]!.values, dayOfMonth: parsed[2]!.values,
    month: parsed[3]!.values, dayOfWeek: parsed[4]!.values,
    dayOfMonthStar: parsed[2]!.star, dayOfWeekStar: parsed[4]!.star,
  };
}

function parseField(field: string, bounds: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of field.split(',')) {
    const r = parseRange(part, bounds);
    star ||= r.star;
    for (let v = r.start; v <= r.end; v += r.step) values.add(v);
  }
  return { values, star };
}

function parseRange(expr: string, bounds: Bounds): { start: number; end: number; step: number; star: boolean } {
  const slash = expr.split('/');
  if (slash.length > 2) throw new Error(`too many slashes: ${expr}`);
  const dash = slash[0]!.split('-');
  if (dash.length > 2) throw new Error(`too many hyphens: ${expr}`);
  let start: number;
  let end: number;
  let star = false;
  if (dash[0] === '*' || dash[0] === '?') {
    if (dash.length > 1) throw new Error(`failed to parse int from ${dash[1]}: ${expr}`);
    [start, end, star] = [bounds.min, bounds.max, true];
  } else {
    start = parseValue(dash[0]!, bounds, expr);
    end = dash.length === 2 ? parseValue(dash[1]!, bounds, expr) : start;
  }
  let step = 1;
  if (slash.length === 2) {
    step = Number(slash[1]);
    if (!/^\d+$/.test(slash[1]!) || step <= 0) throw new Error(`step of range should be a positive number: ${expr}`);
    if (dash.length === 1 && !star) end = bounds.max; // `5/10` means 5-max/10
    if (step > 1) star = false;
  }
  if (start < bounds.min) throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  return { start, end, step, star };
}

function parseValue(text: string, bounds: Bounds, expr: string): number {
  const named = bounds.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return named + bounds.min;
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}: ${expr}`);
  return Number(text);
}

/** Go's time.ParseDuration for positive durations (`1h30m`, `90s`, `1.5h`); whole milliseconds. */
function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (text === '' || consumed !== text.length) throw new Error(`failed to parse duration @every ${text}`);
  if (total < 1000) return 1000; // robfig rounds intervals below a second up to one second
  return Math.floor(total / 1000) * 1000;
}
