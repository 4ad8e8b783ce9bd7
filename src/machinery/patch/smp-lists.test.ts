import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchSchema } from './patch-schema.js';
import { applyOrder, checkOrderConsistency, mergeList, type MapMerger } from './smp-lists.js';

/** A shallow map merger is enough to exercise the list rules. */
const shallow: MapMerger = (orig, patch) => ({ ...orig, ...patch });
const byName: PatchSchema = { list: { kind: 'map', key: 'name' } };
const set: PatchSchema = { list: { kind: 'set' } };
const n = (...names: string[]) => names.map((name) => ({ name }));
const names = (xs: unknown[]) => xs.map((x) => (x as { name: string }).name);

describe('applyOrder (normalizeElementOrder semantics)', () => {
  const id = (x: unknown) => x;
  const cases: Array<[string, string[], string[], string[], string[]]> = [
    // name, merged, patch order, live order, want
    ['patch items only', ['a', 'b'], ['b', 'a'], [], ['b', 'a']],
    ['new patch item goes before server-only items', ['a', 'b', 'c'], ['c'], ['a', 'b'], ['c', 'a', 'b']],
    ['server-only item before a later patched item keeps its slot', ['a', 'b', 'c'], ['b', 'c'], ['a', 'b', 'c'], ['a', 'b', 'c']],
    ['server-only items interleave by live position', ['a', 'b', 'c', 'd'], ['d', 'b'], ['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'b']],
    ['setElementOrder puts a new item in the middle', ['a', 'b', 'c'], ['a', 'c', 'b'], ['a', 'b'], ['a', 'c', 'b']],
    ['nothing patched keeps live order', ['b', 'a'], [], ['a', 'b'], ['a', 'b']],
  ];
  for (const [name, merged, patchOrder, live, want] of cases) {
    test(name, () => assert.deepEqual(applyOrder(merged, patchOrder, live, id), want));
  }
});

describe('mergeList', () => {
  test('atomic (no strategy) replaces', () => {
    assert.deepEqual(mergeList(['a'], ['b'], undefined, shallow), ['b']);
    assert.deepEqual(mergeList(n('a'), n('b'), { list: { kind: 'atomic' } }, shallow), n('b'));
  });

  test('set: union without duplicates, $patch replace', () => {
    assert.deepEqual(mergeList(['a', 'b'], ['b', 'c'], set, shallow), ['a', 'b', 'c']);
    assert.deepEqual(mergeList(['a', 'b'], ['c', 'b'], set, shallow), ['c', 'a', 'b']);
    assert.deepEqual(mergeList(['a', 'b'], [{ $patch: 'replace' }, 'z'], set, shallow), ['z']);
    assert.deepEqual(mergeList([1, 2], [2], set, shallow), [1, 2]);
    assert.deepEqual(mergeList([1, 2], [3], set, shallow), [3, 1, 2]);
  });

  test('keyed: merge existing, add new, delete and replace', () => {
    const live = [{ name: 'a', v: 1 }, { name: 'b', v: 1 }];
    assert.deepEqual(mergeList(live, [{ name: 'b', v: 2 }], byName, shallow), [{ name: 'a', v: 1 }, { name: 'b', v: 2 }]);
    assert.deepEqual(names(mergeList(live, [{ $patch: 'delete', name: 'a' }], byName, shallow)), ['b']);
    assert.deepEqual(mergeList(live, [{ $patch: 'replace' }, { name: 'z' }], byName, shallow), [{ name: 'z' }]);
    assert.deepEqual(names(mergeList(live, n('c'), byName, shallow, n('a', 'c', 'b'))), ['a', 'c', 'b']);
  });

  test('keyed: numeric merge keys compare by value', () => {
    const ports: PatchSchema = { list: { kind: 'map', key: 'containerPort' } };
    assert.deepEqual(mergeList([{ containerPort: 80, name: 'x' }], [{ containerPort: 80, name: 'y' }], ports, shallow), [{ containerPort: 80, name: 'y' }]);
  });
});

describe('checkOrderConsistency', () => {
  const id = (x: unknown) => (x as { name: string }).name;
  test('accepts a subsequence, ignoring $patch items', () => {
    checkOrderConsistency([...n('a', 'c'), { $patch: 'delete', name: 'zz' }], n('a', 'b', 'c'), id);
    checkOrderConsistency([], n('a'), id);
  });
  test('rejects items missing from the order or out of order', () => {
    assert.throws(() => checkOrderConsistency(n('x'), n('a'), id), /doesn't match/);
    assert.throws(() => checkOrderConsistency(n('c', 'a'), n('a', 'b', 'c'), id), /doesn't match/);
  });
});
