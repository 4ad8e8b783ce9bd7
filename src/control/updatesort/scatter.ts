/**
 * `scatterStrategy` (docs/design/cloneset.md §9): spread the pods matching each `key=value` term
 * through the update order so they are not updated back to back. Density is judged against all
 * the workload's pods, not only the candidates; the last matching candidate always goes last.
 */
import type { Pod } from '../../api/core/index.js';
import { labelsOf } from './pod-facts.js';

/** `updateStrategy.rollingUpdate.scatterStrategy` (the api schema exports no static type for it). */
export interface ScatterTerm { key: string; value: string }
export type UpdateScatterStrategy = readonly ScatterTerm[];
type Term = ScatterTerm;

const matches = (pod: Pod, term: Term): boolean => labelsOf(pod)[term.key] === term.value;

/** One term as given; several: those matching some candidate, most matches first (stable). */
export function scatterTerms(pods: readonly Pod[], strategy: UpdateScatterStrategy): Term[] {
  if (strategy.length === 1) return [...strategy];
  const counted: { term: Term; count: number }[] = [];
  for (const term of strategy) {
    const count = pods.filter((p) => matches(p, term)).length;
    const seen = counted.find((c) => c.term.key === term.key && c.term.value === term.value);
    if (seen) seen.count += count;
    else if (count > 0) counted.push({ term: { key: term.key, value: term.value }, count });
  }
  return counted.sort((a, b) => b.count - a.count).map((c) => c.term);
}

export function sortByScatter<P extends Pod>(
  pods: readonly P[], strategy: UpdateScatterStrategy | undefined, allPods: readonly Pod[] = pods,
): P[] {
  let order = [...pods];
  if (!strategy?.length || order.length <= 1) return order;
  for (const term of scatterTerms(order, strategy)) order = scatterByTerm(order, term, allPods);
  return order;
}

interface Groups { count: number; matchedSize: number; unmatchedSize: number; unmatchedLead: number }

function evenGroups(matched: number, unmatched: number): Groups {
  const count = Math.min(matched, unmatched);
  return { count, matchedSize: Math.round(matched / count), unmatchedSize: Math.round(unmatched / count), unmatchedLead: 0 };
}

/**
 * Group sizes for the candidates. When the candidates are no denser in matching pods than the whole
 * workload, spread them evenly among themselves; otherwise use the whole workload's group sizes and
 * put the unmatched candidates that do not fit the groups in front.
 */
function groupsByDensity(totalMatched: number, totalUnmatched: number, matched: number, unmatched: number): Groups {
  // float32 ratios, as upstream compares them
  if (Math.fround(totalUnmatched / totalMatched) >= Math.fround(unmatched / matched)) return evenGroups(matched, unmatched);
  const total = evenGroups(totalMatched, totalUnmatched);
  const count = Math.min(Math.trunc(matched / total.matchedSize), Math.trunc(unmatched / total.unmatchedSize));
  return { ...total, count, unmatchedLead: unmatched - count * total.unmatchedSize };
}

function scatterByTerm<P extends Pod>(pods: P[], term: Term, allPods: readonly Pod[]): P[] {
  const matched = pods.filter((p) => matches(p, term));
  const unmatched = pods.filter((p) => !matches(p, term));
  if (matched.length <= 1 || unmatched.length <= 1) return pods;
  const totalMatched = allPods.filter((p) => matches(p, term)).length - 1;
  const totalUnmatched = allPods.length - 1 - totalMatched;
  const last = matched.pop()!;
  const groups = groupsByDensity(totalMatched, totalUnmatched, matched.length, unmatched.length);
  const out = unmatched.splice(0, groups.unmatchedLead);
  for (let i = 0; i < groups.count; i++) {
    out.push(...matched.splice(0, groups.matchedSize), ...unmatched.splice(0, groups.unmatchedSize));
  }
  return [...out, ...matched, ...unmatched, last];
}
