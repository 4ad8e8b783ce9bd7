import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGoZero, semanticEqual } from './semantic-equal.js';

test('absent members equal their Go zero values at any depth', () => {
  const stored = { name: 'app', image: 'nginx' };
  const resent = { name: 'app', image: 'nginx', resources: {}, ports: [], workingDir: '', stdin: false, env: null, securityContext: { limits: {} } };
  assert.equal(semanticEqual(stored, resent), true);
  assert.equal(semanticEqual({ spec: { containers: [stored] } }, { spec: { containers: [resent] } }), true);
});

test('real differences stay differences', () => {
  assert.equal(semanticEqual({ a: 1 }, {}), false);
  assert.equal(semanticEqual({ a: [{}] }, {}), false);
  assert.equal(semanticEqual([1, 2], [2, 1]), false);
  assert.equal(semanticEqual({ image: 'a' }, { image: 'b' }), false);
  assert.equal(semanticEqual({ resources: { requests: { cpu: '1' } } }, { resources: {} }), false);
  assert.equal(isGoZero({ a: { b: [] } }), true);
  assert.equal(isGoZero({ a: { b: ['x'] } }), false);
});
