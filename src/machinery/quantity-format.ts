/**
 * The canonical text of a resource.Quantity (CanonicalizeBytes): a decimal mantissa with an SI
 * suffix whose exponent is a multiple of 3, or for binary quantities that are whole and at least
 * 1024 in size, the largest exact power-of-1024 suffix.
 */

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export const NANO = 10n ** 9n;

const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX: Record<number, string> = { 0: '', 10: 'Ki', 20: 'Mi', 30: 'Gi', 40: 'Ti', 50: 'Pi', 60: 'Ei' };

function formatBinary(units: bigint): string {
  let value = units;
  let exponent = 0;
  while (value % 1024n === 0n && exponent < 60) {
    value /= 1024n;
    exponent += 10;
  }
  return `${value}${BINARY_SUFFIX[exponent]}`;
}

function formatDecimal(nanos: bigint, format: QuantityFormat): string {
  const negative = nanos < 0n;
  let mantissa = negative ? -nanos : nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  // Lower the exponent to a multiple of 3 by growing the mantissa.
  const extra = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(extra);
  exponent -= extra;
  const si = DECIMAL_SUFFIX[exponent];
  const suffix = format === 'DecimalSI' && si !== undefined ? si : exponent === 0 ? '' : `e${exponent}`;
  return `${negative ? '-' : ''}${mantissa}${suffix}`;
}

/** Canonical text of `nanos` (the value times 10^9) in the quantity's format. */
export function formatCanonical(nanos: bigint, format: QuantityFormat): string {
  if (nanos === 0n) return '0';
  if (format === 'BinarySI') {
    const small = nanos > -1024n * NANO && nanos < 1024n * NANO;
    // Binary suffixes only for whole numbers of at least 1024; anything else would lose precision.
    if (!small && nanos % NANO === 0n) {
      return nanos < 0n ? `-${formatBinary(-nanos / NANO)}` : formatBinary(nanos / NANO);
    }
    return formatDecimal(nanos, 'DecimalSI');
  }
  return formatDecimal(nanos, format);
}
