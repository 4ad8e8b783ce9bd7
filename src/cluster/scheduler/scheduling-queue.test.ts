import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, flush } from '../../machinery/clock.js';
import { SchedulingQueue } from './scheduling-queue.js';

let queue: SchedulingQueue | undefined;
afterEach(() => queue?.shutDown());

/** Keys handed out without waiting (ready now). */
async function ready(q: SchedulingQueue): Promise<string[]> {
  await flush();
  const out: string[] = [];
  while (q.readyCount() > 0) {
    const next = (await q.get())!;
    out.push(next);
    q.done(next);
  }
  return out;
}

function setup(options: Partial<ConstructorParameters<typeof SchedulingQueue>[0]> = {}) {
  const clock = new FakeClock();
  queue = new SchedulingQueue({ clock, ...options });
  return { clock, q: queue };
}

describe('SchedulingQueue', () => {
  test('new pods are handed out in order, once', async () => {
    const { q } = setup();
    q.add('ns/a');
    q.add('ns/b');
    q.add('ns/a');
    assert.deepEqual(await ready(q), ['ns/a', 'ns/b']);
  });

  test('a parked pod waits for an event, then for its backoff', async () => {
    const { q, clock } = setup();
    q.unschedulable('ns/a', false);
    clock.advance(5000);
    assert.deepEqual(await ready(q), []);
    q.moveParked();
    assert.deepEqual(await ready(q), ['ns/a']); // 1 s backoff already passed
    q.unschedulable('ns/a', false); // second failure: 2 s
    q.moveParked();
    clock.advance(1999);
    assert.deepEqual(await ready(q), []);
    clock.advance(1);
    assert.deepEqual(await ready(q), ['ns/a']);
  });

  test('backoff doubles up to the maximum', async () => {
    const { q, clock } = setup({ maxBackoffMs: 4000 });
    for (let i = 0; i < 5; i++) q.unschedulable('ns/a', false);
    q.moveParked();
    clock.advance(3999);
    assert.deepEqual(await ready(q), []);
    clock.advance(1);
    assert.deepEqual(await ready(q), ['ns/a']);
  });

  test('a pod added elsewhere only releases pods that failed on pod affinity or spreading', async () => {
    const { q, clock } = setup();
    q.unschedulable('ns/resources', false);
    q.unschedulable('ns/affinity', true);
    clock.advance(1000);
    q.moveParked(true);
    assert.deepEqual(await ready(q), ['ns/affinity']);
    assert.equal(q.parkedCount(), 1);
  });

  test('parked pods are retried after maxUnschedulableMs without events', async () => {
    const { q, clock } = setup({ maxUnschedulableMs: 60_000, flushIntervalMs: 30_000 });
    q.unschedulable('ns/a', false);
    clock.advance(30_000);
    assert.deepEqual(await ready(q), []);
    clock.advance(30_000);
    assert.deepEqual(await ready(q), ['ns/a']);
  });

  test('an update of a parked pod releases it; forget drops it', async () => {
    const { q, clock } = setup();
    q.unschedulable('ns/a', false);
    q.unschedulable('ns/b', false);
    clock.advance(1000);
    q.add('ns/a');
    q.forget('ns/b');
    q.moveParked();
    assert.deepEqual(await ready(q), ['ns/a']);
  });

  test('an error retries after the backoff without any event', async () => {
    const { q, clock } = setup();
    q.failed('ns/a');
    assert.deepEqual(await ready(q), []);
    clock.advance(1000);
    assert.deepEqual(await ready(q), ['ns/a']);
  });
});
