/**
 * Label selectors: the `labelSelector` query parameter (labels.Parse) and the structured
 * metav1.LabelSelector of workload specs (LabelSelectorAsSelector), with one matching model.
 */
import { errors } from './errors.js';
import {
  newRequirement, requirementMatches, requirementToString, type Operator, type Requirement,
} from './label-requirement.js';
import { parseRequirements } from './label-selector-parser.js';

export type { Operator, Requirement } from './label-requirement.js';

export interface LabelSelector {
  matches(labels: Record<string, string> | undefined): boolean;
  /** True when the selector has no requirements and so selects everything. */
  empty: boolean;
  /** Canonical form: requirements sorted by key, values sorted. */
  toString(): string;
  readonly requirements: readonly Requirement[];
}

/** metav1.LabelSelector (api/core's LabelSelector; the name here is taken by the matcher). */
export type { LabelSelector as MetaLabelSelector, LabelSelectorRequirement } from '../api/core/index.js';
import type { LabelSelector as MetaLabelSelector } from '../api/core/index.js';

class RequirementSelector implements LabelSelector {
  readonly requirements: readonly Requirement[];
  constructor(requirements: Requirement[]) {
    // Stable sort by key, so the string form is deterministic.
    this.requirements = [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  get empty(): boolean { return this.requirements.length === 0; }
  matches(labels: Record<string, string> | undefined): boolean {
    const set = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, set));
  }
  toString(): string { return this.requirements.map(requirementToString).join(','); }
}

/** labels.Nothing(): what a null metav1.LabelSelector means. */
const NOTHING: LabelSelector = {
  requirements: [], empty: false, matches: () => false, toString: () => '',
};

export const everything = (): LabelSelector => new RequirementSelector([]);
export const nothing = (): LabelSelector => NOTHING;

/** labels.Parse; syntax and validation errors are 400 BadRequest with upstream's message. */
export function parseLabelSelector(text: string): LabelSelector {
  try {
    return new RequirementSelector(parseRequirements(text));
  } catch (e) {
    throw errors.badRequest((e as Error).message);
  }
}

/** labels.SelectorFromValidatedSet-like: `k=v` for each entry (a Service's or RC's selector map). */
export function selectorFromSet(set: Record<string, string> | undefined): LabelSelector {
  return new RequirementSelector(Object.entries(set ?? {}).map(([k, v]) => ({ key: k, operator: '=', values: [v] })));
}

const EXPRESSION_OPS: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, `{}` selects everything.
 * Invalid keys, values or operators throw 400 BadRequest.
 */
export function selectorFromLabelSelector(sel: MetaLabelSelector | undefined | null): LabelSelector {
  if (sel === null || sel === undefined) return NOTHING;
  const labels = Object.entries(sel.matchLabels ?? {});
  const exprs = sel.matchExpressions ?? [];
  if (labels.length + exprs.length === 0) return everything();
  try {
    const reqs = labels.map(([k, v]) => newRequirement(k, '=', [v]));
    for (const expr of exprs) {
      const op = EXPRESSION_OPS[expr.operator];
      if (!op) throw new Error(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
      reqs.push(newRequirement(expr.key, op, expr.values ?? []));
    }
    return new RequirementSelector(reqs);
  } catch (e) {
    throw errors.badRequest((e as Error).message);
  }
}

/**
 * The query-parameter form of a metav1.LabelSelector. Note a null selector prints as '' just like
 * `{}` does (labels.Nothing().String()); callers must not send it as "select all".
 */
export function labelSelectorToString(sel: MetaLabelSelector | undefined | null): string {
  return selectorFromLabelSelector(sel).toString();
}
