import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { createFileStore } from '../apiserver/storage/file-store.js';
import { isReady } from './workloads-pods.js';
import { diffRequests, type RequestTable } from './workloads-requests.js';
import { StageRecorder } from './workloads-stages.js';
import { StoreWatch } from './workloads-watch.js';

const pod = (name: string, ready: boolean, app = 'web'): KObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { app } },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

test('until: resolves at the event that makes the count hold, exact waits for extra objects to go', async () => {
  const store = await createFileStore();
  const watch = new StoreWatch(store, '/core/pods/ns/', (o) => o.metadata.labels?.app === 'web');
  const twoReady = watch.until('2 ready', { match: isReady, count: 2 }, 5_000);
  const exactlyTwo = watch.until('exactly 2 ready', { match: isReady, count: 2, exact: true }, 5_000);
  let done = '';
  void twoReady.then(() => { done += 'count;'; });
  void exactlyTwo.then(() => { done += 'exact;'; });
  await store.create('/core/pods/ns/a', pod('a', true));
  await store.create('/core/pods/ns/other', pod('other', false, 'db')); // not kept: never counts
  await store.create('/core/pods/ns/b', pod('b', false));
  await store.create('/core/pods/ns/c', pod('c', true));
  await new Promise((r) => setImmediate(r));
  assert.equal(done, 'count;');
  await store.delete('/core/pods/ns/b');
  await Promise.all([twoReady, exactlyTwo]);
  assert.equal(done, 'count;exact;');
  await assert.rejects(watch.until('3 ready', { match: isReady, count: 3 }, 50), /timed out after 0.05 s waiting for 3 ready \(2\/3 match, 2 objects\)/);
  watch.stop();
  await store.close();
});

test('StageRecorder: first time per pod per stage, and the gap between stages', async () => {
  const store = await createFileStore();
  const watch = new StoreWatch(store, '/core/pods/ns/');
  const rec = new StageRecorder(watch, [
    { name: 'created', check: (_p, gone) => !gone },
    { name: 'Ready', check: isReady, from: 'created' },
  ], performance.now());
  await store.create('/core/pods/ns/a', pod('a', false));
  await new Promise((r) => setTimeout(r, 30));
  await store.update('/core/pods/ns/a', pod('a', true));
  await store.update('/core/pods/ns/a', { ...pod('a', true), spec: { x: 1 } }); // already Ready: not counted again
  const s = rec.stop();
  assert.equal(s.reached.created?.n, 1);
  assert.equal(s.reached.Ready?.n, 1);
  const gap = s.gaps['created -> Ready']!;
  assert.ok(gap.p50 >= 0.02 && gap.p50 < 1, `gap ${gap.p50}`);
  watch.stop();
  await store.close();
});

test('diffRequests: per agent and kind, failures by code, kinds without new writes left out', () => {
  const before: RequestTable = { m: { reads: 1, writes: 2, failedWrites: 0, writeMs: 4, byKind: { 'create pods': { n: 2, ms: 4, failed: {} } } } };
  const after: RequestTable = {
    m: { reads: 3, writes: 5, failedWrites: 1, writeMs: 10, byKind: { 'create pods': { n: 2, ms: 4, failed: {} }, 'update pods/status': { n: 3, ms: 6, failed: { 409: 1 } } } },
  };
  assert.deepEqual(diffRequests(after, before), {
    m: { reads: 2, writes: 3, failedWrites: 1, writeMs: 6, byKind: { 'update pods/status': { n: 3, ms: 6, failed: { 409: 1 } } } },
  });
});
