/**
 * IntOrString values such as maxUnavailable, maxSurge and partition, resolved against a total the
 * way intstr.GetScaledValueFromIntOrPercent does it (Kruise also allows decimal percents). Webhooks
 * report the error; controllers, which only see admitted objects, throw it.
 */
export type IntOrPercent = number | string | undefined;

export type Scaled = { value: number; error?: undefined } | { value?: undefined; error: string };

/** An int, or a percent of `total` rounded up or down; errors read as upstream's. */
export function scaledIntOrPercent(value: unknown, total: number, roundUp: boolean): Scaled {
  if (value === undefined || value === null) return { value: 0 };
  if (typeof value === 'number') return { value: Math.trunc(value) };
  if (typeof value !== 'string') return { error: 'invalid value for IntOrString: invalid type: neither int nor percentage' };
  if (!value.endsWith('%')) return { error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const number = value.slice(0, -1);
  if (!/^[-+]?\d+(\.\d+)?$/.test(number)) {
    return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(value)}: strconv.Atoi: parsing ${JSON.stringify(number)}: invalid syntax` };
  }
  // Rounded to 1e-9 first so float noise (3 * 33.33 / 100) does not move a result across an integer.
  const scaled = Math.round(((Number.parseFloat(number) * total) / 100) * 1e9) / 1e9;
  return { value: roundUp ? Math.ceil(scaled) : Math.floor(scaled) };
}

/** scaledIntOrPercent for controllers: the value, or the upstream error thrown. */
export function scaledValue(value: IntOrPercent, total: number, roundUp: boolean): number {
  const r = scaledIntOrPercent(value, total, roundUp);
  if (r.error !== undefined) throw new Error(r.error);
  return r.value;
}
