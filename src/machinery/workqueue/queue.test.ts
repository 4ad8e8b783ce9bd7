import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FakeClock, flush } from '../clock.js';
import { exponentialRateLimiter } from './rate-limiter.js';
import { WorkQueue, type QueueMetrics } from './queue.js';

function recordingMetrics() {
  const m = { depth: -1, adds: 0, retries: 0, latencies: [] as number[], durations: [] as number[] };
  const hooks: QueueMetrics = {
    depth: (n) => { m.depth = n; },
    added: () => { m.adds++; },
    queueLatency: (s) => { m.latencies.push(s); },
    workDuration: (s) => { m.durations.push(s); },
    retried: () => { m.retries++; },
  };
  return { m, hooks };
}

describe('rate limiter', () => {
  test('backs off exponentially from 5 ms to 1000 s per item, and forget resets', () => {
    const limiter = exponentialRateLimiter();
    const delays = Array.from({ length: 30 }, () => limiter.when('a'));
    assert.deepEqual(delays.slice(0, 5), [5, 10, 20, 40, 80]);
    assert.equal(delays[29], 1000_000);
    assert.ok(delays.every((d, i) => i === 0 || d >= delays[i - 1]), 'never shrinks');
    assert.equal(limiter.when('b'), 5, 'per item');
    assert.equal(limiter.retries('a'), 30);
    limiter.forget('a');
    assert.equal(limiter.when('a'), 5);
  });

  test('rejects nonsense options', () => {
    assert.throws(() => exponentialRateLimiter({ baseMs: 0 }));
    assert.throws(() => exponentialRateLimiter({ baseMs: 10, maxMs: 5 }));
  });
});

describe('workqueue', () => {
  test('de-duplicates keys not yet handed out', async () => {
    const { m, hooks } = recordingMetrics();
    const q = new WorkQueue({ clock: new FakeClock(), metrics: hooks });
    q.add('a'); q.add('b'); q.add('a');
    assert.equal(q.len(), 2);
    assert.equal(m.adds, 2);
    assert.equal(m.depth, 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
    assert.equal(q.len(), 0);
  });

  test('a key added while processing is processed again after done, never concurrently', async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    q.add('a');
    const key = await q.get();
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'not handed to a second worker while processing');
    q.done(key!);
    assert.equal(q.len(), 1);
    assert.equal(await q.get(), 'a');
    q.done('a');
    assert.equal(q.len(), 0);
  });

  test('get waits for an add; shutDown wakes every waiting getter with undefined', async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    const first = q.get();
    q.add('x');
    assert.equal(await first, 'x');
    const waiting = [q.get(), q.get()];
    q.shutDown();
    assert.deepEqual(await Promise.all(waiting), [undefined, undefined]);
    q.add('y');
    assert.equal(await q.get(), undefined, 'adds after shutdown are ignored');
  });

  test('drain resolves when the last in-flight key is done', async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    q.add('a');
    const key = (await q.get())!;
    let drained = false;
    const draining = q.drain().then(() => { drained = true; });
    q.shutDown();
    await flush();
    assert.equal(drained, false);
    q.done(key);
    await draining;
    assert.equal(drained, true);
  });

  test('addAfter fires on the fake clock and keeps the earliest time', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter('a', 1000);
    q.addAfter('a', 5000);
    q.addAfter('b', 300);
    clock.advance(299);
    assert.equal(q.len(), 0);
    clock.advance(1);
    assert.equal(q.len(), 1);
    clock.advance(700);
    assert.equal(q.len(), 2);
    assert.deepEqual([await q.get(), await q.get()], ['b', 'a']);
    clock.advance(10_000);
    assert.equal(q.len(), 0, 'the later duplicate was dropped');
  });

  test('addRateLimited waits longer on each retry until forget', async () => {
    const clock = new FakeClock();
    const { m, hooks } = recordingMetrics();
    const q = new WorkQueue({ clock, metrics: hooks });
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const start = clock.now();
      q.addRateLimited('k');
      while (q.len() === 0) clock.advance(1);
      waits.push(clock.now() - start);
      q.done((await q.get())!);
    }
    assert.deepEqual(waits, [5, 10, 20, 40]);
    assert.equal(q.numRequeues('k'), 4);
    assert.equal(m.retries, 4);
    q.forget('k');
    assert.equal(q.numRequeues('k'), 0);
  });

  test('reports queue latency and work duration on the injected clock', async () => {
    const clock = new FakeClock();
    const { m, hooks } = recordingMetrics();
    const q = new WorkQueue({ clock, metrics: hooks });
    q.add('a');
    clock.advance(250);
    const key = (await q.get())!;
    clock.advance(1500);
    q.done(key);
    assert.deepEqual(m.latencies, [0.25]);
    assert.deepEqual(m.durations, [1.5]);
  });

  test('property: every added key is handed out exactly once per processing round', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 }), async (keys) => {
      const q = new WorkQueue({ clock: new FakeClock() });
      for (const k of keys) q.add(k);
      const seen: string[] = [];
      while (q.len() > 0) {
        const k = (await q.get())!;
        seen.push(k);
        q.done(k);
      }
      assert.deepEqual(seen, [...new Set(keys)]);
    }));
  });
});
