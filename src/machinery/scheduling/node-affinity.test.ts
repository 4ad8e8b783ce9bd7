import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { preferredNodeTerms, requiredNodeMatcher } from './node-affinity.js';
import type { PlacementPodSpec } from './types.js';
import type { NodeSelectorRequirement } from '../../api/core/index.js';

const labels = { zone: 'a', disk: 'ssd', cores: '8' };
const required = (...terms: { matchExpressions?: NodeSelectorRequirement[]; matchFields?: NodeSelectorRequirement[] }[]): PlacementPodSpec =>
  ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
const expr = (key: string, operator: NodeSelectorRequirement['operator'], values?: string[]) => ({ matchExpressions: [{ key, operator, values }] });

describe('requiredNodeMatcher', () => {
  const cases: [string, PlacementPodSpec, boolean][] = [
    ['no constraints', {}, true],
    ['nodeSelector matches', { nodeSelector: { zone: 'a', disk: 'ssd' } }, true],
    ['nodeSelector mismatch', { nodeSelector: { zone: 'b' } }, false],
    ['In', required(expr('zone', 'In', ['a', 'b'])), true],
    ['In, other value', required(expr('zone', 'In', ['b'])), false],
    ['NotIn', required(expr('zone', 'NotIn', ['b'])), true],
    ['NotIn on a missing label matches', required(expr('gpu', 'NotIn', ['x'])), true],
    ['NotIn, listed', required(expr('zone', 'NotIn', ['a'])), false],
    ['Exists', required(expr('disk', 'Exists')), true],
    ['Exists, missing', required(expr('gpu', 'Exists')), false],
    ['DoesNotExist', required(expr('gpu', 'DoesNotExist')), true],
    ['DoesNotExist, present', required(expr('disk', 'DoesNotExist')), false],
    ['Gt', required(expr('cores', 'Gt', ['4'])), true],
    ['Gt, equal is not greater', required(expr('cores', 'Gt', ['8'])), false],
    ['Lt', required(expr('cores', 'Lt', ['16'])), true],
    ['Lt on a non-integer label', required(expr('zone', 'Lt', ['16'])), false],
    ['Gt, missing label', required(expr('gpu', 'Gt', ['1'])), false],
    ['expressions in a term are ANDed', required({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }, { key: 'disk', operator: 'In', values: ['hdd'] }] }), false],
    ['terms are ORed', required(expr('zone', 'In', ['x']), expr('disk', 'In', ['ssd'])), true],
    ['an empty term matches nothing', required({}), false],
    ['no terms match nothing', required(), false],
    ['matchFields on metadata.name', required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }), true],
    ['matchFields on another name', required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] }), false],
    ['matchFields NotIn', required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-2'] }] }), true],
    ['matchFields and expressions ANDed', required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }], ...expr('zone', 'In', ['b']) }), false],
    ['nodeSelector AND affinity', { nodeSelector: { zone: 'b' }, ...required(expr('disk', 'Exists')) }, false],
  ];
  for (const [name, spec, want] of cases) test(name, () => assert.equal(requiredNodeMatcher(spec)(labels, 'node-1'), want));
});

describe('preferredNodeTerms', () => {
  test('weights of matching terms', () => {
    const terms = preferredNodeTerms({
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 10, preference: expr('zone', 'In', ['a']) },
        { weight: 5, preference: expr('disk', 'In', ['hdd']) },
        { weight: 7, preference: {} },
      ] } },
    });
    assert.equal(terms.length, 2);
    assert.equal(terms.filter((t) => t.matches(labels, 'n')).reduce((s, t) => s + t.weight, 0), 10);
  });
});
