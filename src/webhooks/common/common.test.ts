import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { intOrPercentNumber, scaledIntOrPercent, validatePriorityStrategy, validateScatterStrategy } from './strategy-validation.js';
import { diffOps, nonImageChange } from './template-diff.js';
import { validateNodeSelectorTerm } from './node-selector.js';
import { messages } from '../testkit.js';

describe('int-or-percent', () => {
  test('percents scale against the total, rounding up or down; decimals allowed', () => {
    assert.deepEqual(scaledIntOrPercent('20%', 7, true), { value: 2 });
    assert.deepEqual(scaledIntOrPercent('20%', 7, false), { value: 1 });
    assert.deepEqual(scaledIntOrPercent('33.3%', 10, true), { value: 4 });
    assert.deepEqual(scaledIntOrPercent(3, 100, true), { value: 3 });
    assert.deepEqual(scaledIntOrPercent(undefined, 5, true), { value: 0 });
    assert.equal(scaledIntOrPercent('3', 5, true).error, 'invalid value for IntOrString: invalid type: string is not a percentage');
    assert.match(scaledIntOrPercent('x%', 5, true).error ?? '', /invalid value "x%"/);
  });

  test('the number compared with zero: percents by their number, junk as 0', () => {
    assert.deepEqual(['10%', 0, '0%', 'abc', '3', -1].map(intOrPercentNumber), [10, 0, 0, 0, 3, -1]);
  });
});

describe('priority and scatter strategies', () => {
  test('report the first problem as Required at the strategy path', () => {
    assert.deepEqual(messages(validatePriorityStrategy({ weightPriority: [{ weight: -1, matchSelector: { matchLabels: { a: 'b' } } }] }, 'p')),
      ['p: Required value: weight must be valid number in the range 1-100']);
    assert.deepEqual(validatePriorityStrategy({ orderPriority: [{ orderedKey: 'k' }] }, 'p'), []);
    assert.deepEqual(validatePriorityStrategy(undefined, 'p'), []);
    assert.deepEqual(messages(validateScatterStrategy([{ key: 'k', value: '' }, { key: 'k', value: '' }], 's')), ['s: Required value: duplicated key=k value=']);
    assert.deepEqual(validateScatterStrategy([{ key: 'k', value: 'a' }, { key: 'k', value: 'b' }], 's'), []);
  });
});

describe('template diff', () => {
  test('objects by key, arrays by index', () => {
    assert.deepEqual(diffOps({ a: 1, b: [1, 2], c: { d: 1 } }, { a: 2, b: [1], c: {}, e: 1 }), [
      { op: 'replace', path: '/a' }, { op: 'remove', path: '/b/1' }, { op: 'remove', path: '/c/d' }, { op: 'add', path: '/e' },
    ]);
  });

  test('only container image replacements pass InPlaceOnly', () => {
    const spec = (image: string, extra = {}) => ({ containers: [{ name: 'a', image, ...extra }], initContainers: [{ name: 'i', image: 'x' }] });
    assert.equal(nonImageChange(spec('a:1'), spec('a:2')), undefined);
    assert.equal(nonImageChange(spec('a:1'), spec('a:1', { args: ['x'] })), 'add /containers/0/args');
    assert.equal(nonImageChange(spec('a:1'), { ...spec('a:1'), initContainers: [{ name: 'i', image: 'y' }] }), 'replace /initContainers/0/image');
  });
});

describe('node selector terms', () => {
  test('field requirements take one metadata.name value', () => {
    const errs = validateNodeSelectorTerm({ matchFields: [{ key: 'spec.nodeName', operator: 'In', values: ['a', 'b'] }] }, 't');
    assert.deepEqual(messages(errs), [
      "t.matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
      't.matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key',
    ]);
    assert.deepEqual(messages(validateNodeSelectorTerm({ matchExpressions: [{ key: 'n', operator: 'Gt', values: ['1', '2'] }] }, 't')),
      ["t.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"]);
  });
});
