/** retryOnConflict: which errors are retried and how many times. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from '../machinery/errors.js';
import { isExpired, retryOnConflict } from './retry.js';

function failing(times: number, error: Error) {
  let calls = 0;
  return { calls: () => calls, fn: async () => { calls++; if (calls <= times) throw error; return 'done'; } };
}

test('retries 409 Conflict until it succeeds', async () => {
  const f = failing(3, errors.conflict('configmaps', 'a'));
  assert.equal(await retryOnConflict(f.fn, { backoffMs: 0 }), 'done');
  assert.equal(f.calls(), 4);
});

test('gives up after `attempts` tries with the last conflict', async () => {
  const f = failing(10, errors.conflict('configmaps', 'a'));
  await assert.rejects(retryOnConflict(f.fn, { attempts: 3, backoffMs: 0 }), /Operation cannot be fulfilled/);
  assert.equal(f.calls(), 3);
});

test('does not retry AlreadyExists (also 409) or other errors', async () => {
  for (const e of [errors.alreadyExists('configmaps', 'a'), errors.notFound('configmaps', 'a'), new Error('plain')]) {
    const f = failing(1, e);
    await assert.rejects(retryOnConflict(f.fn, { backoffMs: 0 }), e);
    assert.equal(f.calls(), 1);
  }
});

test('isExpired recognises 410', () => {
  assert.equal(isExpired(errors.expired('too old resource version: 1 (2)')), true);
  assert.equal(isExpired(errors.notFound('pods', 'p')), false);
});
