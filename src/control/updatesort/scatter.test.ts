import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scatterTerms, sortByScatter } from './scatter.js';
import { names, pod } from './test-kit.js';

const zone = (name: string, z: string) => pod(name, { labels: { zone: z } });
const zoneA = [{ key: 'zone', value: 'a' }];

describe('sortByScatter', () => {
  test('interleaves matching pods evenly; the last matching pod goes last', () => {
    const pods = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'].map((n) => zone(n, n[0]));
    assert.deepEqual(names(sortByScatter(pods, zoneA)), ['a1', 'b1', 'b2', 'a2', 'b3', 'a3']);
  });

  test('candidates sparser than the workload use its group sizes and lead with the surplus', () => {
    const candidates = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'b4', 'b5'].map((n) => zone(n, n[0]));
    const others = ['a4', 'a5', 'a6', 'a7'].map((n) => zone(n, 'a'));
    assert.deepEqual(names(sortByScatter(candidates, zoneA, [...candidates, ...others])),
      ['b1', 'b2', 'b3', 'a1', 'b4', 'a2', 'b5', 'a3']);
  });

  test('candidates no denser than the workload spread among themselves', () => {
    const candidates = ['a1', 'a2', 'a3', 'b1', 'b2'].map((n) => zone(n, n[0]));
    const others = ['b3', 'b4', 'b5', 'b6'].map((n) => zone(n, 'b'));
    assert.deepEqual(names(sortByScatter(candidates, zoneA, [...candidates, ...others])), ['a1', 'b1', 'a2', 'b2', 'a3']);
  });

  const unchanged: [string, string[]][] = [
    ['one matching pod', ['a1', 'b1', 'b2']],
    ['one unmatched pod', ['a1', 'a2', 'b1']],
    ['a single pod', ['a1']],
  ];
  for (const [name, input] of unchanged) {
    test(`leaves the order alone with ${name}`, () => {
      assert.deepEqual(names(sortByScatter(input.map((n) => zone(n, n[0])), zoneA)), input);
    });
  }

  test('no strategy leaves the order alone', () => {
    const pods = ['a1', 'a2', 'b1', 'b2'].map((n) => zone(n, n[0]));
    assert.deepEqual(names(sortByScatter(pods, undefined)), ['a1', 'a2', 'b1', 'b2']);
  });
});

describe('scatterTerms', () => {
  const pods = [
    pod('p0', { labels: { zone: 'a', app: 'x' } }), pod('p1', { labels: { app: 'x' } }),
    pod('p2', { labels: { app: 'x', zone: 'a' } }), pod('p3', { labels: { zone: 'b' } }),
  ];
  test('several terms: most matched first, unmatched terms dropped', () => {
    const strategy = [{ key: 'zone', value: 'a' }, { key: 'zone', value: 'c' }, { key: 'app', value: 'x' }];
    assert.deepEqual(scatterTerms(pods, strategy), [{ key: 'app', value: 'x' }, { key: 'zone', value: 'a' }]);
  });
  test('a single term is used as given, even with no match', () => {
    assert.deepEqual(scatterTerms(pods, [{ key: 'zone', value: 'c' }]), [{ key: 'zone', value: 'c' }]);
  });
});
