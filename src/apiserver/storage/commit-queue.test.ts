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
    onFailure: () => assert.fail('nothing fails'),
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

test('a failed persist undoes its batch and everything queued, newest first, and rejects them; the next write persists again', async () => {
  let fail: ((err: Error) => void) | undefined;
  let healthy = false;
  const persisted: string[] = [];
  const undone: number[] = [];
  const failures: string[] = [];
  const queue = new CommitQueue({
    persist: (data) => healthy ? Promise.resolve(void persisted.push(data)) : new Promise((_, reject) => (fail = reject)),
    beforeBatch: async () => {},
    publish: () => {},
    durableRv: 0,
    onFailure: (err) => (failures.push(err.message), err),
  });
  const a = queue.enqueue(...write(1), () => undone.push(1));
  await new Promise(setImmediate);
  const b = queue.enqueue(...write(2), () => undone.push(2));
  fail!(new Error('ENOSPC'));
  await assert.rejects(a, /ENOSPC/);
  await assert.rejects(b, /ENOSPC/);
  assert.deepEqual(undone, [2, 1]);
  assert.deepEqual(failures, ['ENOSPC']);
  assert.equal(queue.failure?.message, 'ENOSPC');
  healthy = true;
  assert.equal((await queue.enqueue(...write(1))).rv, 1);
  assert.deepEqual(persisted, ['r1;']);
  assert.equal(queue.failure, undefined);
  assert.equal(queue.durableRv, 1);
});
