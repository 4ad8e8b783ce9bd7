/**
 * Syntax check of an AdvancedCronJob schedule as robfig/cron's ParseStandard reads it: an
 * optional `TZ=`/`CRON_TZ=` prefix, a descriptor (`@hourly`, `@every 1h30m` ...) or five fields
 * of comma lists of `*`, `?`, `a`, `a-b`, each with an optional `/step`; month and weekday names.
 * Returns the parser's error message, or undefined when the schedule parses. Panics of the Go
 * parser (a `TZ=` prefix with nothing after it) come back as errors too.
 */
import { loadTimeZoneError } from './time-zone.js';

interface Bounds { min: number; max: number; names?: string[] }

const BOUNDS: Bounds[] = [
  { min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 },
  { min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { min: 0, max: 6, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];
const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
const durationRe = /^(?:\d+(?:\.\d*)?(?:ns|us|µs|ms|s|m|h))+$/;

export function cronSyntaxError(schedule: string): string | undefined {
  let spec = schedule;
  if (spec.length === 0) return 'empty spec string';
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const zone = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
    if (space < 0) return `provided bad location ${zone}: missing schedule after the time zone`;
    const zoneError = loadTimeZoneError(zone);
    if (zoneError) return `provided bad location ${zone}: ${zoneError}`;
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return descriptorError(spec);
  const fields = spec.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    for (const part of fields[i].split(',')) {
      const err = rangeError(part, BOUNDS[i]);
      if (err) return err;
    }
  }
  return undefined;
}

function descriptorError(spec: string): string | undefined {
  if (spec.startsWith('@every ')) {
    const duration = spec.slice('@every '.length).trim();
    return durationRe.test(duration) ? undefined : `failed to parse duration ${spec}: time: invalid duration "${duration}"`;
  }
  return DESCRIPTORS.includes(spec) ? undefined : `unrecognized descriptor: ${spec}`;
}

function rangeError(expr: string, bounds: Bounds): string | undefined {
  const slash = expr.split('/');
  const dash = slash[0].split('-');
  if (slash.length > 2) return `too many slashes: ${expr}`;
  if (dash.length > 2) return `too many hyphens: ${expr}`;
  let start = bounds.min;
  let end = bounds.max;
  if (dash[0] !== '*' && dash[0] !== '?') {
    const first = value(dash[0], bounds, expr);
    if (typeof first === 'string') return first;
    const last = dash.length === 2 ? value(dash[1], bounds, expr) : first;
    if (typeof last === 'string') return last;
    [start, end] = [first, last];
  } else if (dash.length > 1) {
    return `failed to parse int from ${dash[1]}: strconv.Atoi: parsing "${dash[1]}": invalid syntax`;
  }
  if (slash.length === 2) {
    const step = value(slash[1], { min: 0, max: 0 }, expr);
    if (typeof step === 'string') return step;
    if (step === 0) return `step of range should be a positive number: ${expr}`;
  }
  if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expr}`;
  if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return undefined;
}

/** A number or (for months and weekdays) a name; the error message when it is neither. */
function value(text: string, bounds: Bounds, expr: string): number | string {
  const named = bounds.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return named + bounds.min;
  if (/^-\d+$/.test(text)) return `negative number (${text}) not allowed: ${expr}`;
  if (!/^\+?\d+$/.test(text)) return `failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`;
  return Number(text);
}
