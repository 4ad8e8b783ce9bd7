import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpdatePriorityStrategy } from '../../api/kruise/workloads/schema-parts.js';
import { sortByPriority, trailingInteger } from './priority.js';
import { names, pod } from './test-kit.js';

const labelled = (name: string, labels: Record<string, string>) => pod(name, { labels });

describe('sortByPriority: weightPriority', () => {
  const strategy: UpdatePriorityStrategy = {
    weightPriority: [
      { weight: 50, matchSelector: { matchLabels: { tier: 'a' } } },
      { weight: 30, matchSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] } },
      { weight: 100, matchSelector: { matchLabels: { bad: 'not a valid value!' } } },
    ],
  };
  const cases: [string, Record<string, string>[], string[]][] = [
    ['higher summed weight first', [{}, { tier: 'a' }, { tier: 'a', zone: 'z1' }, { zone: 'z1' }], ['p2', 'p1', 'p3', 'p0']],
    ['equal weights keep the input order', [{ tier: 'a' }, {}, { tier: 'a' }], ['p0', 'p2', 'p1']],
    ['an invalid selector never adds weight', [{ bad: 'not a valid value!' }, { zone: 'z1' }], ['p1', 'p0']],
  ];
  for (const [name, labels, want] of cases) {
    test(name, () => assert.deepEqual(names(sortByPriority(labels.map((l, i) => labelled(`p${i}`, l)), strategy)), want));
  }
});

describe('sortByPriority: orderPriority', () => {
  const strategy = { orderPriority: [{ orderedKey: 'first' }, { orderedKey: 'second' }] };
  const cases: [string, Record<string, string>[], string[]][] = [
    ['earlier key first', [{ second: '9' }, { first: '1' }], ['p1', 'p0']],
    ['larger trailing integer first within a key', [{ first: 'sts-2' }, { first: 'sts-10' }, { first: 'sts-1' }], ['p1', 'p0', 'p2']],
    ['quirk: pods with none of the keys come before keyed pods', [{ first: '5' }, { other: 'x' }, { second: '1' }, {}], ['p1', 'p3', 'p0', 'p2']],
    ['the first listed key the pod has decides', [{ first: '1', second: '99' }, { second: '2' }], ['p0', 'p1']],
    ['values without a trailing integer count as 0 and keep order', [{ first: 'abc' }, { first: 'x0' }, { first: 'y1' }], ['p2', 'p0', 'p1']],
  ];
  for (const [name, labels, want] of cases) {
    test(name, () => assert.deepEqual(names(sortByPriority(labels.map((l, i) => labelled(`p${i}`, l)), strategy)), want));
  }

  test('weightPriority wins when both are set', () => {
    const both = { ...strategy, weightPriority: [{ weight: 1, matchSelector: { matchLabels: { second: '1' } } }] };
    const pods = [labelled('p0', { first: '1' }), labelled('p1', { second: '1' })];
    assert.deepEqual(names(sortByPriority(pods, both)), ['p1', 'p0']);
  });

  test('no strategy or empty lists leave the order alone', () => {
    const pods = [labelled('p0', { first: '1' }), labelled('p1', {})];
    assert.deepEqual(names(sortByPriority(pods, undefined)), ['p0', 'p1']);
    assert.deepEqual(names(sortByPriority(pods, { orderPriority: [], weightPriority: [] })), ['p0', 'p1']);
  });
});

test('trailingInteger', () => {
  const cases: [string, bigint][] = [['sts-10', 10n], ['7', 7n], ['a1b', 0n], ['', 0n], ['x-007', 7n], ['n99999999999999999999', 0n]];
  for (const [value, want] of cases) assert.equal(trailingInteger(value), want, value);
});
