import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Limiter } from './limiter.js';

const tick = () => new Promise((r) => setImmediate(r));

test('runs every call, never more than the limit at once, across separate batches', async () => {
  const limit = new Limiter(3);
  let inFlight = 0;
  let peak = 0;
  const done: number[] = [];
  const call = (n: number) => limit.run(async () => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await tick();
    inFlight--;
    done.push(n);
    if (n === 4) throw new Error('boom');
    return n;
  });
  const first = [1, 2, 3, 4].map(call);
  const second = [5, 6, 7].map(call);
  const results = await Promise.allSettled([...first, ...second]);
  assert.equal(peak, 3);
  assert.deepEqual(done.sort(), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  assert.throws(() => new Limiter(0));
});
