/**
 * The behaviour file's rules, ready to match (§10): each selects pods by namespace, label
 * selector and owner kind, and containers by name and image; every rule that matches applies, in
 * file order, a later one's field winning over an earlier one's (general rules first, exceptions
 * after, as in a kustomize overlay).
 */
import { parseLabelSelector } from '../../../machinery/labels.js';
import type { BehaviourRule } from './behaviour-file.js';
import { globMatcher, imageMatcher } from './glob.js';
import { mergeSettings, type BehaviourSettings } from './settings.js';
import type { Container, Pod } from '../../../api/core/index.js';

export interface CompiledRule {
  name: string;
  matches(pod: Pod, container: Container): boolean;
  set: BehaviourSettings;
}

/** A test that passes when the list is absent, else when any entry matches. */
function anyOf<T>(list: string[] | undefined, compile: (entry: string) => (value: T) => boolean): (value: T) => boolean {
  if (!list) return () => true;
  const tests = list.map(compile);
  return (value) => tests.some((t) => t(value));
}

export function compileRule(rule: BehaviourRule): CompiledRule {
  const s = rule.select ?? {};
  const namespace = anyOf<string>(s.namespaces, (ns) => (v) => v === ns);
  const labels = s.podSelector !== undefined ? parseLabelSelector(s.podSelector) : undefined;
  const owner = anyOf<string[]>(s.ownerKinds, (kind) => (kinds) => kinds.includes(kind));
  const name = anyOf<string>(s.containerNames, globMatcher);
  const image = anyOf<string>(s.images, imageMatcher);
  return {
    name: rule.name,
    set: rule.set,
    matches: (pod, container) =>
      namespace(pod.metadata.namespace ?? 'default')
      && (!labels || labels.matches(pod.metadata.labels))
      && owner((pod.metadata.ownerReferences ?? []).map((o) => o.kind))
      && name(container.name)
      && image(container.image ?? ''),
  };
}

/** The settings every matching rule gives, merged in file order. */
export function ruleSettings(rules: CompiledRule[], pod: Pod, container: Container): BehaviourSettings {
  return mergeSettings(...rules.filter((r) => r.matches(pod, container)).map((r) => r.set));
}
