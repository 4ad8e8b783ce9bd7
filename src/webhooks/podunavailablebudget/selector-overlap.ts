/**
 * Loose overlap of two label selectors, as PUB validation uses it: they overlap when they
 * constrain exactly the same keys and, key by key, some label value can satisfy both
 * requirements. Selectors on different keys never overlap (even though a pod could match both).
 */
import type { MetaLabelSelector } from '../../machinery/labels.js';

interface Req { operator: string; values: string[] }

function requirementsByKey(selector: MetaLabelSelector): Map<string, Req> {
  const out = new Map<string, Req>();
  for (const e of selector.matchExpressions ?? []) out.set(e.key, { operator: e.operator, values: e.values ?? [] });
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) out.set(k, { operator: 'In', values: [v] });
  return out;
}

const overlaps = (a: string[], b: string[]): boolean => a.some((v) => b.includes(v));
const containsAll = (a: string[], b: string[]): boolean => b.every((v) => a.includes(v));

/** Whether a label value (or its absence) can satisfy both `a` and `b`, as Kruise's table decides it. */
function requirementsOverlap(a: Req, b: Req): boolean {
  switch (a.operator) {
    case 'In':
      return b.operator === 'Exists' || (b.operator === 'In' && overlaps(b.values, a.values))
        || (b.operator === 'NotIn' && !containsAll(b.values, a.values));
    case 'Exists':
      return b.operator === 'In' || b.operator === 'NotIn' || b.operator === 'Exists';
    case 'NotIn':
      return b.operator === 'Exists' || b.operator === 'DoesNotExist' || b.operator === 'NotIn'
        || (b.operator === 'In' && !containsAll(a.values, b.values));
    case 'DoesNotExist':
      return b.operator === 'DoesNotExist' || b.operator === 'NotIn';
    default:
      return false;
  }
}

export function isSelectorLooseOverlap(s1: MetaLabelSelector, s2: MetaLabelSelector): boolean {
  const r1 = requirementsByKey(s1);
  const r2 = requirementsByKey(s2);
  for (const [key, a] of r1) {
    const b = r2.get(key);
    if (!b || !requirementsOverlap(a, b)) return false;
  }
  for (const [key, b] of r2) {
    const a = r1.get(key);
    if (!a || !requirementsOverlap(b, a)) return false;
  }
  return true;
}
