import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachLimited } from './parallel.js';

const tick = () => new Promise((r) => setImmediate(r));

test('runs every item with at most `limit` in flight', async () => {
  let inFlight = 0;
  let peak = 0;
  const seen: number[] = [];
  await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await tick();
    seen.push(n);
    inFlight--;
  });
  assert.equal(peak, 3);
  assert.deepEqual(seen.sort(), [1, 2, 3, 4, 5, 6, 7]);
});

test('after the first failure nothing new starts; running calls finish; the first error is thrown', async () => {
  const started: number[] = [];
  const finished: number[] = [];
  await assert.rejects(forEachLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
    started.push(n);
    await tick();
    if (n === 1) throw new Error('first');
    if (n === 2) { await tick(); throw new Error('second'); }
    finished.push(n);
  }), /first/);
  assert.deepEqual(started, [1, 2]);
  assert.deepEqual(finished, []);
});

test('no items, no calls; a bad limit is refused', async () => {
  await forEachLimited([], 4, () => Promise.reject(new Error('never')));
  await assert.rejects(forEachLimited([1], 0, async () => undefined), /positive integer/);
});
