/** The system controllers' worker: one sync per key at a time, backoff on failure, a returned delay honoured. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, flush } from '../../machinery/clock.js';
import { QueueWorker, type SyncResult } from './queue-worker.js';

test('a key added while queued syncs once; a failure retries with backoff; a delay syncs again after it', async () => {
  const clock = new FakeClock(0);
  const seen: string[] = [];
  const answers: Record<string, (() => SyncResult)[]> = {
    a: [() => undefined],
    b: [() => { throw new Error('not yet'); }, () => undefined],
    c: [() => 100, () => undefined],
  };
  const worker = new QueueWorker('test', async (key) => {
    seen.push(`${key}@${clock.now()}`);
    return answers[key].shift()!();
  }, clock);
  for (const key of ['a', 'a', 'b', 'c', 'a']) worker.add(key);
  worker.start();
  await flush();
  assert.deepEqual(seen, ['a@0', 'b@0', 'c@0']);
  await clock.advanceAsync(5);
  assert.deepEqual(seen.slice(3), ['b@5'], 'first retry after the 5 ms base backoff');
  await clock.advanceAsync(95, 5);
  assert.deepEqual(seen.slice(4), ['c@100']);
  await worker.stop();
});

test('stop waits for the sync in progress and drops what is queued', async () => {
  let release!: () => void;
  const seen: string[] = [];
  const worker = new QueueWorker('test', async (key) => {
    seen.push(key);
    if (key === 'slow') await new Promise<void>((resolve) => { release = resolve; });
  }, new FakeClock(0));
  worker.add('slow');
  worker.start();
  await flush();
  worker.add('next');
  let stopped = false;
  const stopping = worker.stop().then(() => { stopped = true; });
  await flush();
  assert.equal(stopped, false);
  release();
  await stopping;
  assert.deepEqual(seen, ['slow']);
});
