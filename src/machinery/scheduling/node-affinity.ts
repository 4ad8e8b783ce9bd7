/**
 * Required node selection (component-helpers' nodeaffinity): `spec.nodeSelector` AND the required
 * node affinity (terms OR'ed, expressions inside a term AND'ed; In/NotIn/Exists/DoesNotExist/Gt/Lt
 * on labels, `matchFields` In/NotIn on `metadata.name`), and the weighted preferred terms.
 */
import { requirementMatches, type Operator, type Requirement } from '../label-requirement.js';
import type { PlacementPodSpec } from './types.js';
import type { NodeSelectorRequirement, NodeSelectorTerm } from '../../api/core/index.js';

const OPERATORS: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };
const FIELD_OPERATORS = new Set(['In', 'NotIn']);
export const NodeNameField = 'metadata.name';

interface CompiledTerm {
  labels: Requirement[];
  fields: Requirement[];
}

function toRequirement(r: NodeSelectorRequirement): Requirement | undefined {
  const operator = OPERATORS[r.operator];
  return operator ? { key: r.key, operator, values: r.values ?? [] } : undefined;
}

/** undefined when the term can match nothing (empty, an unknown operator, an unsupported field). */
function compileTerm(term: NodeSelectorTerm | undefined): CompiledTerm | undefined {
  const exprs = term?.matchExpressions ?? [];
  const fieldExprs = term?.matchFields ?? [];
  if (exprs.length + fieldExprs.length === 0) return undefined;
  const labels: Requirement[] = [];
  for (const e of exprs) {
    const r = toRequirement(e);
    if (!r) return undefined;
    labels.push(r);
  }
  const fields: Requirement[] = [];
  for (const e of fieldExprs) {
    const r = toRequirement(e);
    if (!r || e.key !== NodeNameField || !FIELD_OPERATORS.has(e.operator)) return undefined;
    fields.push(r);
  }
  return { labels, fields };
}

function termMatches(t: CompiledTerm, labels: Record<string, string>, name: string): boolean {
  for (const r of t.labels) if (!requirementMatches(r, labels)) return false;
  if (t.fields.length === 0) return true;
  const fields = { [NodeNameField]: name };
  for (const r of t.fields) if (!requirementMatches(r, fields)) return false;
  return true;
}

export type NodeMatcher = (labels: Record<string, string>, name: string) => boolean;

/** What a pod without nodeSelector or required node affinity gets (callers may test for it). */
export const matchAll: NodeMatcher = () => true;

/** The NodeAffinity filter's predicate: nodeSelector AND (any required term). */
export function requiredNodeMatcher(spec: PlacementPodSpec | undefined): NodeMatcher {
  const selector = Object.entries(spec?.nodeSelector ?? {});
  const required = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (selector.length === 0 && !required) return matchAll;
  const terms = required ? (required.nodeSelectorTerms ?? []).map(compileTerm).filter((t): t is CompiledTerm => t !== undefined) : undefined;
  return (labels, name) => {
    for (const [k, v] of selector) if (labels[k] !== v) return false;
    if (!terms) return true;
    for (const t of terms) if (termMatches(t, labels, name)) return true;
    return false;
  };
}

export interface WeightedTerm {
  weight: number;
  matches: NodeMatcher;
}

/** Preferred terms with a weight; a node scores the sum of the weights of the terms it matches. */
export function preferredNodeTerms(spec: PlacementPodSpec | undefined): WeightedTerm[] {
  const out: WeightedTerm[] = [];
  for (const p of spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
    const t = compileTerm(p.preference);
    if (t && p.weight) out.push({ weight: p.weight, matches: (labels, name) => termMatches(t, labels, name) });
  }
  return out;
}
