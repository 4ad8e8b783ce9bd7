/** Token-bucket throttling on a fake clock. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter } from './rate-limiter.js';

function fakeClock() {
  let now = 0;
  const slept: number[] = [];
  return { now: () => now, slept, sleep: async (ms: number) => { slept.push(ms); now += ms; } };
}

test('a burst goes through at once, then one request per 1/qps seconds', async () => {
  const clock = fakeClock();
  const limiter = new RateLimiter({ qps: 4, burst: 2, ...clock });
  const order: number[] = [];
  await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.take().then(() => order.push(i))));
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.deepEqual(clock.slept, [250, 250, 250]);
  assert.equal(clock.now(), 750);
});

test('tokens refill while idle, up to the burst', async () => {
  const clock = fakeClock();
  const limiter = new RateLimiter({ qps: 10, burst: 3, ...clock });
  for (let i = 0; i < 3; i++) await limiter.take();
  await clock.sleep(10_000);
  clock.slept.length = 0;
  for (let i = 0; i < 4; i++) await limiter.take();
  assert.deepEqual(clock.slept, [100]);
});

test('qps must be positive', () => {
  assert.throws(() => new RateLimiter({ qps: 0 }), /qps must be positive/);
});
