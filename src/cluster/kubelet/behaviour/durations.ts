/**
 * Durations as `sleep` reads them: a number of seconds with an optional fraction and an `s`, `m`,
 * `h` or `d` suffix (GNU and busybox agree), or `infinity`/`inf`.
 */

const factors: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** Milliseconds, Infinity for `infinity`, or undefined when `sleep` would reject the operand. */
export function sleepMs(text: string): number | undefined {
  if (/^(inf|infinity)$/i.test(text)) return Infinity;
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(text);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * factors[m[2]] * 1000);
}
