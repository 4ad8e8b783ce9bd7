/**
 * How spec.replicas is split over the subsets (docs/design/uniteddeployment.md §3). Percentages of
 * spec.replicas round half-up. Specific: fixed `replicas` first, the rest evenly over the others,
 * the remainder +1 to the subsets that have the most replicas now (ties by name, descending).
 * Min/max: every subset's min in order, then up to each max in order. Adaptive: min/max where an
 * unschedulable subset keeps at most its ready pods and a schedulable one never loses ready pods.
 */
import { compareStrings } from '../../machinery/order.js';
export interface SubsetReplicaSpec {
  name: string;
  replicas?: number | string;
  minReplicas?: number | string;
  maxReplicas?: number | string;
}

export interface AdaptiveFacts {
  ready: number;
  unschedulable: boolean;
}

export type Allocation = { replicas: Map<string, number>; error?: undefined } | { replicas?: undefined; error: string };

const unbounded = Number.MAX_SAFE_INTEGER;

/** An int, or "N%" of total rounded half-up. */
export function scaleHalfUp(value: number | string | undefined, total: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return value;
  const percent = Number.parseFloat(value.replace('%', ''));
  return Math.floor((total * percent) / 100 + 0.5);
}

export function allocateSpecific(total: number, subsets: readonly SubsetReplicaSpec[], current: ReadonlyMap<string, number>): Allocation {
  const out = new Map<string, number>();
  let fixed = 0;
  const free: string[] = [];
  for (const s of subsets) {
    const r = scaleHalfUp(s.replicas, total);
    if (r === undefined) free.push(s.name);
    else {
      out.set(s.name, r);
      fixed += r;
    }
  }
  if (fixed > total) return { error: `specified subsets' replica (${fixed}) is greater than UnitedDeployment replica (${total})` };
  if (free.length === 0) {
    return fixed === total ? { replicas: out } : { error: `specified subsets' replica (${fixed}) is less than UnitedDeployment replica (${total})` };
  }
  const rest = total - fixed;
  const each = Math.floor(rest / free.length);
  const byMost = [...free].sort((a, b) => (current.get(b) ?? 0) - (current.get(a) ?? 0) || compareStrings(b, a));
  const bonus = new Set(byMost.slice(0, rest % free.length));
  for (const name of free) out.set(name, each + (bonus.has(name) ? 1 : 0));
  return { replicas: out };
}

interface Bounds { name: string; min: number; max: number }

function fill(total: number, bounds: readonly Bounds[]): Map<string, number> {
  const out = new Map(bounds.map((b) => [b.name, 0]));
  let rest = total;
  for (const b of bounds) {
    const take = Math.min(b.min, rest);
    out.set(b.name, take);
    rest -= take;
  }
  for (const b of bounds) {
    const take = Math.min(Math.max(0, b.max - out.get(b.name)!), rest);
    out.set(b.name, out.get(b.name)! + take);
    rest -= take;
  }
  return out;
}

const boundsOf = (total: number, s: SubsetReplicaSpec): Bounds =>
  ({ name: s.name, min: scaleHalfUp(s.minReplicas, total) ?? 0, max: scaleHalfUp(s.maxReplicas, total) ?? unbounded });

export function allocateMinMax(total: number, subsets: readonly SubsetReplicaSpec[]): Allocation {
  return { replicas: fill(total, subsets.map((s) => boundsOf(total, s))) };
}

export function allocateAdaptive(total: number, subsets: readonly SubsetReplicaSpec[], facts: ReadonlyMap<string, AdaptiveFacts>): Allocation {
  return {
    replicas: fill(total, subsets.map((s) => {
      const b = boundsOf(total, s);
      const f = facts.get(s.name) ?? { ready: 0, unschedulable: false };
      if (f.unschedulable) {
        const max = Math.min(f.ready, b.max);
        return { ...b, min: Math.min(b.min, max), max };
      }
      return f.ready > b.min ? { ...b, min: Math.min(f.ready, b.max) } : b;
    })),
  };
}

export const usesMinMax = (subsets: readonly SubsetReplicaSpec[]): boolean =>
  subsets.some((s) => s.minReplicas !== undefined || s.maxReplicas !== undefined);
