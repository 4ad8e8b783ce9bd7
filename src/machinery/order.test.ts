import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byName, compareStrings, oldestFirst } from './order.js';

const named = (name: string, creationTimestamp?: string) => ({ metadata: { name, creationTimestamp } });

test('strings sort by code unit, as Go sorts bytes: upper case before lower, punctuation by its code', () => {
  assert.deepEqual(['b', 'a-1', 'B', 'a.1', 'a1'].sort(compareStrings), ['B', 'a-1', 'a.1', 'a1', 'b']);
  assert.equal(compareStrings('x', 'x'), 0);
});

test('oldest first, then by name; byName alone', () => {
  const pods = [named('b', '2026-01-01T00:00:01Z'), named('c', '2026-01-01T00:00:00Z'), named('a', '2026-01-01T00:00:01Z'), named('z')];
  assert.deepEqual(pods.sort(oldestFirst).map((p) => p.metadata.name), ['z', 'c', 'a', 'b']);
  assert.deepEqual(pods.sort(byName).map((p) => p.metadata.name), ['a', 'b', 'c', 'z']);
});
