/**
 * Cron schedules as robfig/cron's ParseStandard reads them, with its error texts (the CronJob
 * controller shows them in events, the AdvancedCronJob webhook in field errors): five fields
 * (minute hour day-of-month month day-of-week), each a comma list of `*`, `?`, `a`, `a-b`, with an
 * optional `/step`; month and weekday names (JAN, MON ...); the @yearly ... @hourly descriptors and
 * `@every <duration>`; `parseStandardSchedule` also takes a leading `TZ=<zone> ` or `CRON_TZ=<zone> `.
 * Day-of-month and day-of-week are OR'ed unless either one is unrestricted.
 */
import { parseGoDuration } from './go-duration.js';
import { loadTimeZoneError } from './time-zone.js';

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

/** A schedule without a time-zone prefix; throws an Error with the parser's message. */
export function parseCronSchedule(spec: string): CronSchedule {
  if (spec.length === 0) throw new Error('empty spec string');
  return parseBody(spec);
}

function parseBody(spec: string): CronSchedule {
  if (spec.startsWith('@')) return parseDescriptor(spec);
  const fields = spec.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const parsed = fields.map((f, i) => parseField(f, BOUNDS[i]!));
  return {
    kind: 'fields',
    minute: parsed[0]!.values, hour: parsed[1]!.values, dayOfMonth: parsed[2]!.values,
    month: parsed[3]!.values, dayOfWeek: parsed[4]!.values,
    dayOfMonthStar: parsed[2]!.star, dayOfWeekStar: parsed[4]!.star,
  };
}

/**
 * ParseStandard: an optional `TZ=`/`CRON_TZ=` prefix (whose zone must load), then the schedule.
 * A prefix with nothing after it, where Go's parser panics, is an error here.
 */
export function parseStandardSchedule(spec: string): { schedule: CronSchedule; timeZone?: string } {
  if (!spec.startsWith('TZ=') && !spec.startsWith('CRON_TZ=')) return { schedule: parseCronSchedule(spec) };
  const space = spec.indexOf(' ');
  const zone = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
  if (space < 0) throw new Error(`provided bad location ${zone}: missing schedule after the time zone`);
  const zoneError = loadTimeZoneError(zone);
  if (zoneError) throw new Error(`provided bad location ${zone}: ${zoneError}`);
  // robfig checks for an empty spec before the prefix only: `TZ=UTC ` then has 0 fields
  return { schedule: parseBody(spec.slice(space).trim()), timeZone: zone };
}

/** The ParseStandard error for `spec`, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    parseStandardSchedule(spec);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function parseDescriptor(spec: string): CronSchedule {
  const expansion = DESCRIPTORS[spec];
  if (expansion) return parseBody(expansion);
  if (!spec.startsWith('@every ')) throw new Error(`unrecognized descriptor: ${spec}`);
  let ms: number;
  try {
    ms = parseGoDuration(spec.slice('@every '.length));
  } catch (e) {
    throw new Error(`failed to parse duration ${spec}: ${(e as Error).message}`);
  }
  // robfig runs intervals below a second every second, and drops fractions of a second
  return { kind: 'every', intervalMs: ms < 1000 ? 1000 : Math.floor(ms / 1000) * 1000 };
}

function parseField(field: string, bounds: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of field.split(',').filter(Boolean)) {
    const r = parseRange(part, bounds);
    star ||= r.star;
    for (let v = r.start; v <= r.end; v += r.step) values.add(v);
  }
  return { values, star };
}

/** One `a-b/step` part, checked in robfig's order: values, hyphens, slashes, bounds, step. */
function parseRange(expr: string, bounds: Bounds): { start: number; end: number; step: number; star: boolean } {
  const slash = expr.split('/');
  const dash = slash[0]!.split('-');
  let start = bounds.min;
  let end = bounds.max;
  let star = dash[0] === '*' || dash[0] === '?';
  if (!star) {
    start = parseValue(dash[0]!, bounds);
    if (dash.length > 2) throw new Error(`too many hyphens: ${expr}`);
    end = dash.length === 2 ? parseValue(dash[1]!, bounds) : start;
  }
  let step = 1;
  if (slash.length > 2) throw new Error(`too many slashes: ${expr}`);
  if (slash.length === 2) {
    step = atoi(slash[1]!);
    if (dash.length === 1) end = bounds.max; // `5/10` means 5-max/10
    if (step > 1) star = false;
  }
  if (start < bounds.min) throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  return { start, end, step, star };
}

/** A month or weekday name, else a number. */
function parseValue(text: string, bounds: Bounds): number {
  const named = bounds.names?.indexOf(text.toUpperCase()) ?? -1;
  return named >= 0 ? named + bounds.min : atoi(text);
}

const INT64_MAX = BigInt('9223372036854775807');

/** strconv.Atoi, then robfig's refusal of negative numbers. */
function atoi(text: string): number {
  const atoiError = (why: string) => new Error(`failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: ${why}`);
  if (!/^[+-]?\d+$/.test(text)) throw atoiError('invalid syntax');
  const big = BigInt(text);
  if (big > INT64_MAX || big < -INT64_MAX - BigInt(1)) throw atoiError('value out of range');
  const n = Number(text);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${text}`);
  return n;
}
