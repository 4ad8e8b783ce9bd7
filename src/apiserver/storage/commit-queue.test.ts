import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommitQueue } from './commit-queue.js';
import type { StoreEvent, StoredObject } from './store.js';

function write(rv: number): [string, StoreEvent, StoredObject] {
  const object = { metadata: { name: `o${rv}`, resourceVersion: String(rv) } };
  return [`r${rv};`, { type: 'ADDED', key: `/k/${rv}`, object, rv }, { key: `/k/${rv}`, object, rv }];
}

test('writes queued during a sync share the next batch; events publish in rv order after persist', async () => {
  const batches: string[] = [];
  const published: number[] = [];
  let release: (() => void) | undefined;
  const queue = new CommitQueue({
    persist: (data) => new Promise((resolve) => {
      batches.push(data);
      release = resolve;
    }),
    beforeBatch: async () => {},
    publish: (e) => published.push(e.rv),
    durableRv: 0,
  });
  const first = queue.enqueue(...write(1));
  await new Promise(setImmediate);
  const rest = [2, 3, 4].map((rv) => queue.enqueue(...write(rv)));
  await new Promise(setImmediate);
  assert.deepEqual(batches, ['r1;']);
  assert.deepEqual(published, [], 'nothing published before the sync completes');
  release!();
  assert.equal((await first).rv, 1);
  await new Promise(setImmediate);
  assert.deepEqual(batches, ['r1;', 'r2;r3;r4;']);
  const noop = queue.enqueue('', undefined, write(3)[2]);
  release!();
  assert.deepEqual((await Promise.all([...rest, noop])).map((s) => s.rv), [2, 3, 4, 3]);
  assert.deepEqual(published, [1, 2, 3, 4]);
  assert.equal(queue.durableRv, 4);
});

test('a failed persist rejects its batch and everything queued, and later writes', async () => {
  let fail: ((err: Error) => void) | undefined;
  const queue = new CommitQueue({
    persist: () => new Promise((_, reject) => (fail = reject)),
    beforeBatch: async () => {},
    publish: () => assert.fail('nothing is durable'),
    durableRv: 0,
  });
  const a = queue.enqueue(...write(1));
  await new Promise(setImmediate);
  const b = queue.enqueue(...write(2));
  fail!(new Error('EIO'));
  await assert.rejects(a, /EIO/);
  await assert.rejects(b, /EIO/);
  await assert.rejects(queue.enqueue(...write(3)), /EIO/);
  await queue.drain();
  assert.equal(queue.failure?.message, 'EIO');
});
