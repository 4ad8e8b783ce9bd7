/**
 * Quantity canonicalisation of resource lists (`1000m` -> `1`, `1024Mi` -> `1Gi`), as the real
 * server's Quantity round trip does. Values that do not parse are left for validation to report.
 */
import { canonicalizeQuantity } from '../quantity.js';
import { child, isObject } from '../json.js';

export function canonicalQuantity(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  try {
    return canonicalizeQuantity(String(value));
  } catch {
    return value;
  }
}

/** Rewrites every value of a ResourceList map (`{cpu: "500m", memory: "1024Mi"}`) in place. */
export function canonicalizeResourceList(list: unknown): void {
  if (!isObject(list)) return;
  for (const [name, value] of Object.entries(list)) {
    const canonical = canonicalQuantity(value);
    if (canonical !== value) list[name] = canonical; // already canonical: a stored object's own, left alone
  }
}

/** ResourceRequirements: requests and limits. */
export function canonicalizeRequirements(resources: unknown): void {
  canonicalizeResourceList(child(resources, 'requests'));
  canonicalizeResourceList(child(resources, 'limits'));
}

/** A single quantity field of an object, e.g. emptyDir.sizeLimit. */
export function canonicalizeField(o: unknown, key: string): void {
  if (isObject(o) && o[key] !== undefined && o[key] !== null) o[key] = canonicalQuantity(o[key]);
}
