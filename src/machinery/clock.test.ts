import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, realClock, sleep, withTimeout } from './clock.js';

describe('FakeClock', () => {
  test('fires due timers in due-time order, ties in scheduling order, and cancels', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.after(30, () => fired.push('c'));
    clock.after(10, () => fired.push('a'));
    clock.after(10, () => fired.push('b'));
    const cancel = clock.after(20, () => fired.push('cancelled'));
    cancel();
    clock.advance(25);
    assert.deepEqual(fired, ['a', 'b']);
    assert.equal(clock.now(), 25);
    clock.advance(5);
    assert.deepEqual(fired, ['a', 'b', 'c']);
    assert.equal(clock.pending(), 0);
  });

  test('timers scheduled by callbacks fire within the same advance when due', () => {
    const clock = new FakeClock(0);
    const at: number[] = [];
    const tick = () => { at.push(clock.now()); if (at.length < 5) clock.after(10, tick); };
    clock.after(10, tick);
    clock.advance(35);
    assert.deepEqual(at, [10, 20, 30]);
  });

  test('sleep resolves on advance or abort; withTimeout rejects when due', async () => {
    const clock = new FakeClock(0);
    let woke = false;
    const p = sleep(clock, 100).then(() => { woke = true; });
    await clock.advanceAsync(99);
    assert.equal(woke, false);
    await clock.advanceAsync(1);
    await p;
    assert.equal(woke, true);
    const ac = new AbortController();
    const aborted = sleep(clock, 1e9, ac.signal);
    ac.abort();
    await aborted;
    assert.equal(clock.pending(), 0, 'abort cancels the timer');
    const slow = withTimeout(clock, new Promise(() => {}), 50, () => new Error('too slow'));
    clock.advance(50);
    await assert.rejects(slow, /too slow/);
    assert.equal(await withTimeout(clock, Promise.resolve(7), 50, () => new Error('x')), 7);
  });
});

test('realClock.after beyond setTimeout\'s 2^31-1 ms limit does not fire at once (sleep 999d)', async () => {
  let fired = false;
  const cancel = realClock.after(999 * 86_400_000, () => { fired = true; });
  await new Promise((r) => setTimeout(r, 50));
  cancel();
  assert.equal(fired, false);
});
