/**
 * Kubernetes resource quantities (`100m`, `1Gi`, `1e3`, `0.5`) as exact integers of nano-units,
 * parsed with resource.ParseQuantity's rules (round up to 1n, cap at 2^63-1) and printed the way
 * the API server stores them. Helpers give the scheduler's views: cpu in millicores, memory in bytes.
 */
import { formatCanonical, NANO, type QuantityFormat } from './quantity-format.js';

export type { QuantityFormat } from './quantity-format.js';

export interface Quantity {
  /** The value times 10^9 (exact). */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
  /** The input text when the server would keep it verbatim (already canonical-looking). */
  readonly text?: string;
}

export type QuantityInput = string | number | Quantity;

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const MAX_NANOS = (2n ** 63n - 1n) * NANO;
const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXP: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

interface Suffix { base: 10 | 2; exponent: number; format: QuantityFormat }

function interpretSuffix(s: string): Suffix | undefined {
  if (s in DECIMAL_EXP) return { base: 10, exponent: DECIMAL_EXP[s], format: 'DecimalSI' };
  if (s in BINARY_EXP) return { base: 2, exponent: BINARY_EXP[s], format: 'BinarySI' };
  if (/^[eE][+-]?[0-9]+$/.test(s)) {
    const exponent = Number(s.slice(1));
    if (Math.abs(exponent) < 2 ** 63) return { base: 10, exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

/** ceil(|n| / d) with the sign of n: quantities round away from zero. */
const divideAway = (n: bigint, d: bigint): bigint => {
  const q = n / d;
  return n % d === 0n ? q : n < 0n ? q - 1n : q + 1n;
};

/**
 * |value| in nanos, rounded up to 1n. Upstream caps at the int64 maximum only on its slow path
 * (more than 18 significant digits); shorter inputs keep their value, however large the exponent.
 */
function magnitudeNanos(num: string, frac: string, suffix: Suffix): bigint {
  const digits = BigInt(num + frac);
  if (digits === 0n) return 0n;
  const cap = (n: bigint): bigint => (n > MAX_NANOS ? MAX_NANOS : n);
  if (suffix.base === 2) return cap(divideAway(digits * 2n ** BigInt(suffix.exponent) * NANO, 10n ** BigInt(frac.length)));
  const shift = suffix.exponent - frac.length + 9;
  if (shift > 400) return MAX_NANOS;
  if (shift < -(num.length + frac.length + 1)) return 1n;
  const n = shift >= 0 ? digits * 10n ** BigInt(shift) : divideAway(digits, 10n ** BigInt(-shift));
  return num.length + frac.length > 18 ? cap(n) : n;
}

/**
 * Upstream keeps the input text when it parsed on the int64 fast path and already looks canonical
 * (no trailing "000", no leading zero; binary mantissas not a multiple of 8). Mostly this equals the
 * canonical form; it differs for inputs like "+1" or "0100m", which the server stores as given.
 */
function keptText(num: string, frac: string, suffix: Suffix): boolean {
  const shifted = num + frac;
  if (suffix.base === 2) {
    const precision = 15 - num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
    if (frac !== '' || precision < 0) return false;
    const units = BigInt(shifted) * 2n ** BigInt(suffix.exponent);
    return units < 2n ** 63n && (BigInt(shifted) & 7n) !== 0n;
  }
  const scale = suffix.exponent - frac.length;
  return 18 - shifted.length >= 0 && scale >= -9 && ((scale % 3) + 3) % 3 === 0
    && !shifted.endsWith('000') && shifted[0] !== '0';
}

/**
 * Parsed quantities by text. A pod write parses each of its few quantities a dozen times (decode,
 * defaults, validation, QoS) and a cluster uses few distinct ones, while a parse allocates half a
 * kilobyte of match strings and BigInts (docs/design/performance.md §17). Quantities are immutable;
 * the table starts over when full.
 */
const parsed = new Map<string, Quantity>();
const maxParsed = 4096;

/** resource.ParseQuantity; throws an Error with upstream's message on bad input. */
export function parseQuantity(input: QuantityInput): Quantity {
  if (typeof input === 'object') return input;
  const text = String(input);
  const known = parsed.get(text);
  if (known) return known;
  const q = Object.freeze(parseText(text));
  if (parsed.size >= maxParsed) parsed.clear();
  parsed.set(text, q);
  return q;
}

function parseText(text: string): Quantity {
  if (text === '') throw new Error(QUANTITY_FORMAT_ERROR);
  const m = /^([+-]?)(0*)([0-9]*)(\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(text);
  if (!m) throw new Error(QUANTITY_FORMAT_ERROR);
  const [, sign, zeros, digits, dot, frac = '', suffixText] = m;
  // A sign followed by nothing but zeros is zero (upstream stops scanning there).
  if (digits === '' && dot === undefined && suffixText === '') return { nanos: 0n, format: 'DecimalSI', text: text === '0' ? '0' : undefined };
  const suffix = interpretSuffix(suffixText);
  if (!suffix) throw new Error(QUANTITY_SUFFIX_ERROR);
  // No digit at all ("k", "."): upstream's int64 fast path reads it as 0, its slow path fails.
  if (zeros === '' && digits === '' && frac === '' && suffix.base === 10 && suffix.exponent < -9) {
    throw new Error(QUANTITY_NUMERIC_ERROR);
  }
  const num = digits || '0';
  const magnitude = magnitudeNanos(num, frac, suffix);
  let format = suffix.format;
  if (format === 'BinarySI' && magnitude > 0n && magnitude < NANO) format = 'DecimalSI';
  return { nanos: sign === '-' ? -magnitude : magnitude, format, text: keptText(num, frac, suffix) ? text : undefined };
}

/** The text the API server stores for a quantity. */
export function formatQuantity(q: Quantity): string {
  return q.text ?? formatCanonical(q.nanos, q.format);
}

/** `1000m` -> `1`, `1024Mi` -> `1Gi`, `0.5` -> `500m`, `1.5Gi` -> `1536Mi`. Surrounding spaces are ignored, as in JSON decoding. */
export function canonicalizeQuantity(input: string | number): string {
  return formatQuantity(parseQuantity(typeof input === 'string' ? input.trim() : input));
}

export function isValidQuantity(input: string | number): boolean {
  try {
    parseQuantity(input);
    return true;
  } catch {
    return false;
  }
}

export function compareQuantities(a: QuantityInput, b: QuantityInput): -1 | 0 | 1 {
  const x = parseQuantity(a).nanos;
  const y = parseQuantity(b).nanos;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** MilliValue(): thousandths, rounded away from zero (cpu in millicores). */
export const milliValue = (q: QuantityInput): number => Number(divideAway(parseQuantity(q).nanos, 10n ** 6n));

/** Value(): whole units, rounded away from zero (memory and storage in bytes). */
export const unitValue = (q: QuantityInput): number => Number(divideAway(parseQuantity(q).nanos, NANO));

/** Exact sum; the format of the first non-zero term wins, as Quantity.Add keeps the receiver's. */
export function sumQuantities(values: Iterable<QuantityInput | undefined>): Quantity {
  let nanos = 0n;
  let format: QuantityFormat = 'DecimalSI';
  for (const v of values) {
    if (v === undefined) continue;
    const q = parseQuantity(v);
    if (nanos === 0n && q.nanos !== 0n) format = q.format;
    nanos += q.nanos;
  }
  return { nanos, format };
}

/** Sum of MilliValue() over the values, as the scheduler adds up container cpu requests. */
export const sumMilli = (values: Iterable<QuantityInput | undefined>): number =>
  [...values].reduce<number>((acc, v) => acc + (v === undefined ? 0 : milliValue(v)), 0);

/** Sum of Value() over the values, as the scheduler adds up memory and storage requests. */
export const sumUnits = (values: Iterable<QuantityInput | undefined>): number =>
  [...values].reduce<number>((acc, v) => acc + (v === undefined ? 0 : unitValue(v)), 0);
