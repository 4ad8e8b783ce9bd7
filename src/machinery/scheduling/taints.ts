import type { Taint, TaintEffect, Toleration } from '../../api/core/index.js';
/** Taints and tolerations (v1.Toleration.ToleratesTaint, v1helper.FindMatchingUntoleratedTaint). */

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key !== undefined && t.key !== '' && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  // Equal (the default): an empty key only makes sense with Exists.
  if (!t.key) return false;
  return (t.value ?? '') === (taint.value ?? '');
}

export const tolerated = (tolerations: readonly Toleration[] | undefined, taint: Taint): boolean =>
  (tolerations ?? []).some((t) => toleratesTaint(t, taint));

/** The first taint with one of `effects` that no toleration covers (default NoSchedule and NoExecute). */
export function firstUntoleratedTaint(
  taints: readonly Taint[] | undefined, tolerations: readonly Toleration[] | undefined,
  effects: readonly TaintEffect[] = ['NoSchedule', 'NoExecute'],
): Taint | undefined {
  return (taints ?? []).find((taint) => effects.includes(taint.effect) && !tolerated(tolerations, taint));
}
