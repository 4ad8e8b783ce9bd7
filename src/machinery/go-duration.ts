/**
 * Go's time.ParseDuration (`1h30m`, `1.5h`, `-90s`, `0`) with its error texts, which reach users
 * through the cron parser's messages. Units: ns, us, µs, μs, ms, s, m, h.
 */

const NS_PER_UNIT: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const MAX_NS = 2 ** 63 - 1;

/** Go's time.quote: printable ASCII as is (with `"` and `\` escaped), every other byte as \xNN. */
function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    if (c >= ' ' && c <= '~') out += c === '"' || c === '\\' ? `\\${c}` : c;
    else for (const b of new TextEncoder().encode(c)) out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

/** The duration in milliseconds (fractional below a millisecond); throws Go's error otherwise. */
export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${quote(text)}`);
  let s = text;
  const negative = s.startsWith('-');
  if (negative || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let totalNs = 0;
  const component = /^(\d*)(?:\.(\d*))?/;
  while (s !== '') {
    const m = component.exec(s)!;
    const whole = m[1]!;
    const fraction = m[2];
    if (whole === '' && !fraction) throw invalid();
    s = s.slice(m[0].length);
    const unitLength = s.search(/[.\d]/);
    const unit = unitLength < 0 ? s : s.slice(0, unitLength);
    if (unit === '') throw new Error(`time: missing unit in duration ${quote(text)}`);
    const perUnit = NS_PER_UNIT[unit];
    if (perUnit === undefined) throw new Error(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`);
    s = s.slice(unit.length);
    totalNs += Number(`${whole || '0'}.${fraction || '0'}`) * perUnit;
    if (totalNs > MAX_NS) throw invalid();
  }
  return (negative ? -totalNs : totalNs) / 1e6;
}
