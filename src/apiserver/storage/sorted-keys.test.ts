import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SortedKeys } from './sorted-keys.js';

const op = fc.record({ add: fc.boolean(), key: fc.stringMatching(/^[a-e]{0,4}$/) });

test('SortedKeys matches a sorted-array model under random adds, deletes and scans', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), fc.stringMatching(/^[a-e]{0,4}$/), fc.boolean(), (ops, from, exclusive) => {
      const keys = new SortedKeys<{ key: string }>(4);
      const model = new Set<string>();
      for (const { add, key } of ops) {
        if (add && !model.has(key)) {
          keys.add({ key });
          model.add(key);
        } else if (!add) {
          keys.delete(key);
          model.delete(key);
        }
      }
      const sorted = [...model].sort();
      assert.equal(keys.size, sorted.length);
      const seen: string[] = [];
      keys.scan(from, exclusive, (item) => (seen.push(item.key), true));
      assert.deepEqual(seen, sorted.filter((k) => (exclusive ? k > from : k >= from)));
      const firstTwo: string[] = [];
      keys.scan('', false, (item) => (firstTwo.push(item.key), firstTwo.length < 2));
      assert.deepEqual(firstTwo, sorted.slice(0, 2));
    }),
    { numRuns: 500 },
  );
});
