import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getOwn, hasOwn, setOwn } from './own-props.js';

test('own-property helpers never touch the prototype', () => {
  const obj: Record<string, unknown> = {};
  assert.equal(getOwn(obj, '__proto__'), undefined);
  assert.equal(getOwn(obj, 'toString'), undefined);
  setOwn(obj, '__proto__', { polluted: true });
  assert.equal(hasOwn(obj, '__proto__'), true);
  assert.deepEqual(getOwn(obj, '__proto__'), { polluted: true });
  assert.equal(Object.getPrototypeOf(obj), Object.prototype);
  assert.equal(JSON.stringify(obj), '{"__proto__":{"polluted":true}}');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
