import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KObject } from '../../api/meta.js';
import { createFileStore, type FileStore } from './file-store.js';
import { StoreError, type StoreEvent } from './store.js';
import { jsonText } from '../../machinery/json-text.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'file-store-'));
  dirs.push(dir);
  return dir;
}

function cm(name: string, data: Record<string, string> = {}): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns1' }, data };
}

async function rejectsWith(promise: Promise<unknown>, code: StoreError['code']): Promise<void> {
  await assert.rejects(promise, (err: unknown) => err instanceof StoreError && err.code === code);
}

function collect(store: FileStore, prefix: string, fromRv: number): { events: StoreEvent[]; stop: () => void } {
  const events: StoreEvent[] = [];
  const handle = store.watch(prefix, fromRv, (e) => events.push(e));
  return { events, stop: () => handle.stop() };
}

const summary = (events: StoreEvent[]) => events.map((e) => `${e.type} ${e.key} ${e.rv}`);

describe('file store: objects and revisions', () => {
  test('create, get, update, delete and their errors', async () => {
    const store = await createFileStore({});
    const input = cm('a', { k: 'v' });
    const created = await store.create('/cm/ns1/a', input);
    assert.equal(created.rv, 1);
    assert.equal(created.object.metadata.resourceVersion, '1');
    assert.equal(input.metadata.resourceVersion, undefined, 'caller object untouched');
    // The store takes the object over (no copy), and its remembered text is what it encodes to.
    assert.equal(store.get('/cm/ns1/a')?.object.data, input.data);
    assert.equal(jsonText(store.get('/cm/ns1/a')?.object), JSON.stringify(store.get('/cm/ns1/a')?.object));
    await rejectsWith(store.create('/cm/ns1/a', cm('a')), 'AlreadyExists');
    await rejectsWith(store.update('/cm/ns1/missing', cm('missing')), 'NotFound');
    await rejectsWith(store.update('/cm/ns1/a', cm('a', { k: 'w' }), 7), 'Conflict');
    const updated = await store.update('/cm/ns1/a', cm('a', { k: 'w' }), 1);
    assert.equal(updated.rv, 2);
    assert.equal(store.get('/cm/ns1/a')?.object.metadata.resourceVersion, '2');
    await rejectsWith(store.delete('/cm/ns1/a', 1), 'Conflict');
    const deleted = await store.delete('/cm/ns1/a', 2);
    assert.equal(deleted.rv, 3);
    assert.equal(deleted.object.metadata.resourceVersion, '3');
    assert.deepEqual(deleted.object.data, { k: 'w' });
    assert.equal(store.get('/cm/ns1/a'), undefined);
    await rejectsWith(store.delete('/cm/ns1/a'), 'NotFound');
    assert.equal(store.revision(), 3);
    await assert.rejects(store.create('/cm/ns1/big', { metadata: {}, n: 1n }), TypeError);
    assert.equal(store.revision(), 3, 'an unencodable object uses no revision');
    await store.close();
    await rejectsWith(store.create('/cm/ns1/b', cm('b')), 'Closed');
  });

  test('one revision counter across prefixes, in call order', async () => {
    const store = await createFileStore({});
    const writes = [store.create('/pods/ns1/a', cm('a')), store.create('/cm/ns1/a', cm('a')), store.create('/pods/ns2/b', cm('b'))];
    assert.equal(store.revision(), 3, 'rv assigned at call time');
    assert.deepEqual((await Promise.all(writes)).map((s) => s.rv), [1, 2, 3]);
  });

  test('an update equal to the stored value is a no-op', async () => {
    const store = await createFileStore({});
    await store.create('/cm/ns1/a', cm('a', { x: '1', y: '2' }));
    const events = collect(store, '/', 1).events;
    // Different key order, a stale resourceVersion and an undefined field still count as equal.
    const same: KObject = { data: { y: '2', x: '1' }, kind: 'ConfigMap', apiVersion: 'v1', metadata: { namespace: 'ns1', name: 'a', resourceVersion: '99', labels: undefined } };
    const result = await store.update('/cm/ns1/a', same);
    assert.equal(result.rv, 1);
    assert.equal(store.revision(), 1);
    assert.deepEqual(events, []);
    assert.equal((await store.update('/cm/ns1/a', cm('a', { x: '1', y: '3' }))).rv, 2);
    assert.deepEqual(summary(events), ['MODIFIED /cm/ns1/a 2']);
  });

  test('list is sorted, plain-prefix, paged with startAfter/limit and counts remaining', async () => {
    const store = await createFileStore({});
    const keys = ['/pods/ns10/a', '/pods/ns1/c', '/pods/ns1/a', '/pods/ns2/a', '/pods/ns1/b', '/podsx/ns1/a'];
    for (const key of keys) await store.create(key, cm(key));
    const names = (prefix: string, opts?: Parameters<FileStore['list']>[1]) => {
      const r = store.list(prefix, opts);
      return { keys: r.items.map((i) => i.key), remaining: r.remaining, rv: r.rv };
    };
    assert.deepEqual(names('/pods/ns1/').keys, ['/pods/ns1/a', '/pods/ns1/b', '/pods/ns1/c']);
    assert.deepEqual(names('/pods/ns1').keys, ['/pods/ns1/a', '/pods/ns1/b', '/pods/ns1/c', '/pods/ns10/a'], 'a plain string prefix');
    assert.deepEqual(names('/pods/'), { keys: ['/pods/ns1/a', '/pods/ns1/b', '/pods/ns1/c', '/pods/ns10/a', '/pods/ns2/a'], remaining: 0, rv: 6 });
    assert.deepEqual(names('/pods/', { limit: 2 }), { keys: ['/pods/ns1/a', '/pods/ns1/b'], remaining: 3, rv: 6 });
    assert.deepEqual(names('/pods/', { startAfter: '/pods/ns1/b', limit: 2 }), { keys: ['/pods/ns1/c', '/pods/ns10/a'], remaining: 1, rv: 6 });
    assert.deepEqual(names('/pods/', { startAfter: '/pods/ns10/a' }).keys, ['/pods/ns2/a']);
    assert.deepEqual(names('/pods/', { startAfter: '/a' }).keys.length, 5, 'startAfter before the prefix');
    const filter = (o: KObject) => o.metadata.name!.endsWith('a');
    assert.deepEqual(names('/pods/', { filter, limit: 1 }), { keys: ['/pods/ns1/a'], remaining: 2, rv: 6 });
    assert.deepEqual(names('/nothing/').keys, []);
  });

  test('listing 10k objects under a prefix among 30k takes a few ms', async () => {
    const store = await createFileStore({});
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 30_000; i++) writes.push(store.create(`/pods/ns${i % 3}/pod-${(i * 7919) % 30_000}`, cm(`pod-${i}`)));
    await Promise.all(writes);
    let ms = Infinity; // best of a few runs, so JIT warm-up and GC pauses do not count
    let items = store.list('/pods/ns1/').items;
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      items = store.list('/pods/ns1/').items;
      ms = Math.min(ms, performance.now() - start);
    }
    assert.equal(items.length, 10_000);
    for (let i = 1; i < items.length; i++) assert.ok(items[i - 1]!.key < items[i]!.key);
    console.log(`list of 10k of 30k objects: ${ms.toFixed(2)} ms`);
    assert.ok(ms < 50, `list took ${ms} ms`);
  });
});

describe('file store: watch', () => {
  test('replays history after fromRv, then live events, filtered by prefix', async () => {
    const store = await createFileStore({});
    await store.create('/pods/ns1/a', cm('a'));
    await store.create('/cm/ns1/a', cm('a'));
    await store.update('/pods/ns1/a', cm('a', { v: '2' }));
    const w = collect(store, '/pods/', 1);
    assert.deepEqual(summary(w.events), ['MODIFIED /pods/ns1/a 3'], 'history replayed synchronously');
    assert.equal(w.events[0]!.prevObject?.metadata.resourceVersion, '1');
    const pending = store.delete('/pods/ns1/a');
    assert.equal(w.events.length, 1, 'no event before the write is durable');
    await pending;
    await store.create('/cm/ns1/b', cm('b'));
    assert.deepEqual(summary(w.events), ['MODIFIED /pods/ns1/a 3', 'DELETED /pods/ns1/a 4']);
    const del = w.events[1]!;
    assert.equal(del.object.metadata.resourceVersion, '4');
    assert.deepEqual(del.object.data, { v: '2' });
    assert.equal(del.prevObject?.metadata.resourceVersion, '3');
    w.stop();
    await store.create('/pods/ns1/z', cm('z'));
    assert.equal(w.events.length, 2, 'stopped');
  });

  test('live events during concurrent writes arrive once each, in rv order', async () => {
    const store = await createFileStore({ dir: await tempDir() });
    const early = collect(store, '/', 0);
    const writes: Promise<unknown>[] = [];
    let late: ReturnType<typeof collect> | undefined;
    for (let i = 0; i < 300; i++) {
      writes.push(store.create(`/cm/ns1/o${i}`, cm(`o${i}`)));
      // Start a watch from an older rv while earlier batches are still committing.
      if (i === 150) writes.push(writes[100]!.then(() => (late = collect(store, '/', 50))));
    }
    await Promise.all(writes);
    assert.deepEqual(early.events.map((e) => e.rv), Array.from({ length: 300 }, (_, i) => i + 1));
    assert.deepEqual(late!.events.map((e) => e.rv), Array.from({ length: 250 }, (_, i) => i + 51));
    await store.close();
  });

  test('a watch started from inside a callback gets each event once', async () => {
    const store = await createFileStore({});
    const inner: StoreEvent[] = [];
    store.watch('/', 0, (e) => {
      if (e.rv === 2) store.watch('/', 1, (ev) => inner.push(ev));
    });
    await Promise.all([1, 2, 3].map((i) => store.create(`/cm/ns1/o${i}`, cm(`o${i}`))));
    assert.deepEqual(inner.map((e) => e.rv), [2, 3]);
  });

  test('a watch from the current revision works with empty history; older ones expire', async () => {
    let now = 0;
    const store = await createFileStore({ historyEvents: 3, historyMs: 1000, now: () => now });
    assert.equal(collect(store, '/', 0).events.length, 0);
    for (let i = 0; i < 5; i++) await store.create(`/cm/ns1/o${i}`, cm(`o${i}`));
    assert.equal(store.oldestWatchableRevision(), 3);
    assert.deepEqual(summary(collect(store, '/', 2).events), ['ADDED /cm/ns1/o2 3', 'ADDED /cm/ns1/o3 4', 'ADDED /cm/ns1/o4 5']);
    assert.throws(() => store.watch('/', 1, () => {}), (e: unknown) => e instanceof StoreError && e.code === 'Expired' && e.message === 'too old resource version: 1 (3)');
    now = 5000; // everything is now older than historyMs
    assert.equal(store.oldestWatchableRevision(), 6);
    assert.throws(() => store.watch('/', 4, () => {}), /too old resource version: 4 \(6\)/);
    const w = collect(store, '/', 5);
    await store.create('/cm/ns1/o5', cm('o5'));
    assert.deepEqual(summary(w.events), ['ADDED /cm/ns1/o5 6']);
  });
});

describe('file store: durability', () => {
  test('restart keeps every object, continues the revision and refills watch history', async () => {
    const dir = await tempDir();
    const first = await createFileStore({ dir });
    for (let i = 0; i < 20; i++) await first.create(`/cm/ns1/o${i}`, cm(`o${i}`, { i: String(i) }));
    await first.update('/cm/ns1/o3', cm('o3', { i: 'changed' }));
    await first.delete('/cm/ns1/o4');
    await first.close();
    const second = await createFileStore({ dir });
    assert.equal(second.revision(), 22);
    assert.equal(second.stats().objects, 19);
    assert.deepEqual(second.get('/cm/ns1/o3'), first.get('/cm/ns1/o3'));
    assert.equal(second.get('/cm/ns1/o4'), undefined);
    assert.deepEqual(summary(collect(second, '/cm/', 20).events), ['MODIFIED /cm/ns1/o3 21', 'DELETED /cm/ns1/o4 22']);
    assert.equal((await second.create('/cm/ns1/new', cm('new'))).rv, 23);
    await second.close();
  });

  test('snapshots replace old WAL files and restart from snapshot + WAL', async () => {
    const dir = await tempDir();
    const first = await createFileStore({ dir, snapshotEveryBytes: 4096 });
    for (let i = 0; i < 200; i++) await first.create(`/cm/ns1/o${i}`, cm(`o${i}`, { pad: 'p'.repeat(100) }));
    for (let i = 0; i < 50; i++) await first.delete(`/cm/ns1/o${i}`);
    await first.update('/cm/ns1/o100', cm('o100', { v: 'last' }));
    await first.close();
    assert.ok(first.stats().snapshots > 3, `snapshots: ${first.stats().snapshots}`);
    const files = await readdir(dir);
    assert.ok(files.includes('snapshot.json'));
    assert.ok(files.filter((f) => f.startsWith('wal-')).length <= 2, files.join(' '));
    const second = await createFileStore({ dir });
    assert.equal(second.revision(), 251);
    assert.deepEqual(second.list('/').items, first.list('/').items);
    assert.ok(second.oldestWatchableRevision() > 1);
    assert.throws(() => second.watch('/', 0, () => {}), /too old resource version/);
    assert.equal(collect(second, '/', 250).events.length, 1);
    await second.close();
  });

  test('a torn last WAL record is cut off (and said so); later writes continue after it', async () => {
    const dir = await tempDir();
    const first = await createFileStore({ dir });
    await first.create('/cm/ns1/a', cm('a'));
    await first.create('/cm/ns1/b', cm('b'));
    await first.close();
    const [wal] = (await readdir(dir)).filter((f) => f.startsWith('wal-'));
    await appendFile(join(dir, wal!), '{"rv":3,"op":"put","key":"/cm/ns1/c","val');
    const notes: string[] = [];
    const second = await createFileStore({ dir, onRecoveryNote: (m) => notes.push(m) });
    assert.match(notes.join('\n'), /cut off 41 bytes at byte \d+ of wal-0+1\.log: a record torn by a crash/);
    assert.deepEqual(second.list('/').items.map((i) => `${i.key} ${i.rv}`), ['/cm/ns1/a 1', '/cm/ns1/b 2']);
    assert.equal((await second.create('/cm/ns1/c', cm('c'))).rv, 3);
    await second.close();
    const third = await createFileStore({ dir });
    assert.equal(third.list('/').items.length, 3);
    await third.close();
  });

  test('the WAL grows ahead in zeros while open; a clean close trims them, a crash leaves them and loses nothing', async () => {
    const dir = await tempDir();
    const first = await createFileStore({ dir });
    await first.create('/cm/ns1/a', cm('a'));
    const [wal] = (await readdir(dir)).filter((f) => f.startsWith('wal-'));
    const open = await readFile(join(dir, wal!));
    assert.ok(open.length >= 64 << 10, `grown ahead: ${open.length}`);
    await first.create('/cm/ns1/b', cm('b'));
    await first.close();
    const closed = await readFile(join(dir, wal!));
    assert.equal(closed.at(-1), 0x0a, 'ends with its last record');
    assert.equal(closed.toString().split('\n').length, 3);
    // A crash: the file still has its zeros, and a batch that reached the disk only in part sits in them
    // (its first page zeros, its last page written), followed by more zeros.
    await writeFile(join(dir, wal!), Buffer.concat([closed, Buffer.alloc(5000), Buffer.from('"value":{}}\tdeadbeef\n'), Buffer.alloc(9000)]));
    const notes: string[] = [];
    const second = await createFileStore({ dir, onRecoveryNote: (m) => notes.push(m) });
    assert.match(notes.join('\n'), new RegExp(`cut off 14021 bytes at byte ${closed.length} of ${wal}: a record torn by a crash`));
    assert.deepEqual(second.list('/').items.map((i) => `${i.key} ${i.rv}`), ['/cm/ns1/a 1', '/cm/ns1/b 2']);
    assert.equal((await second.create('/cm/ns1/c', cm('c'))).rv, 3);
    await second.close();
    const quiet: string[] = [];
    const third = await createFileStore({ dir, onRecoveryNote: (m) => quiet.push(m) });
    assert.deepEqual(third.list('/').items.map((i) => `${i.key} ${i.rv}`), ['/cm/ns1/a 1', '/cm/ns1/b 2', '/cm/ns1/c 3']);
    assert.deepEqual(quiet, []);
    await third.close();
  });

  test('group commit: a write resolves after its fdatasync; concurrent writes share them', async () => {
    const store = await createFileStore({ dir: await tempDir() });
    for (let i = 0; i < 5; i++) {
      const before = store.stats().walSyncs;
      await store.create(`/seq/o${i}`, cm(`o${i}`));
      assert.equal(store.stats().walSyncs, before + 1);
    }
    const results = await Promise.all(Array.from({ length: 2000 }, (_, i) => store.create(`/cm/ns1/o${i}`, cm(`o${i}`))));
    assert.equal(new Set(results.map((r) => r.rv)).size, 2000);
    const walSyncs = store.stats().walSyncs - 5;
    assert.ok(walSyncs < 200, `fdatasync calls: ${walSyncs}`);
    await store.close();
  });

  test('throughput: sequential and 32 concurrent writers', async () => {
    const store = await createFileStore({ dir: await tempDir() });
    const obj = (i: number) => cm(`o${i}`, { payload: 'x'.repeat(500) });
    let start = performance.now();
    for (let i = 0; i < 300; i++) await store.create(`/seq/o${i}`, obj(i));
    const sequential = 300 / ((performance.now() - start) / 1000);
    let n = 0;
    start = performance.now();
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (n < 6000) await store.create(`/par/o${n}`, obj(n++));
    }));
    const concurrent = n / ((performance.now() - start) / 1000);
    console.log(`durable writes/s: sequential ${sequential.toFixed(0)}, 32 concurrent ${concurrent.toFixed(0)}`);
    assert.ok(concurrent > sequential * 1.5, 'group commit beats serial fdatasync');
    await store.close();
  });

  test('kill -9 at random moments, 6 cycles on one directory: no acknowledged write lost or changed', async () => {
    const dir = await tempDir();
    // Run the writer the way this test runs: from source under tsx, or compiled from dist/.
    const fromSource = import.meta.url.endsWith('.ts');
    const script = fileURLToPath(new URL(fromSource ? './crash-writer.ts' : './crash-writer.js', import.meta.url));
    const acked: [string, string][] = [];
    for (let cycle = 0; cycle < 6; cycle++) {
      const child = spawn(process.execPath, [...(fromSource ? ['--import', 'tsx'] : []), script, dir, '65536'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      let killTimer: NodeJS.Timeout | undefined;
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        killTimer ??= setTimeout(() => child.kill('SIGKILL'), 50 + Math.random() * 400);
      });
      const guard = setTimeout(() => child.kill('SIGKILL'), 15_000); // never hang if it acknowledges nothing
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, sig) => resolve(sig)));
      clearTimeout(guard);
      assert.equal(signal, 'SIGKILL');
      acked.push(...out.split('\n').slice(0, -1).map((line) => line.split(' ') as [string, string]));
    }
    assert.ok(acked.length > 300, `only ${acked.length} acknowledged writes`);
    assert.ok((await readdir(dir)).includes('snapshot.json'), 'the crash runs also rotated the WAL');
    const store = await createFileStore({ dir, onRecoveryNote: () => {} });
    for (const [key, rv] of acked) {
      assert.equal(store.get(key)?.rv, Number(rv), key);
      assert.equal(store.get(key)?.object.metadata.resourceVersion, rv);
    }
    const maxRv = Math.max(...acked.map(([, rv]) => Number(rv)));
    assert.ok(store.revision() >= maxRv);
    assert.ok((await store.create('/after/crash', cm('x'))).rv > maxRv, 'revisions continue after the crash');
    console.log(`crash test: 6 kill -9 cycles, ${acked.length} acknowledged writes survived, revision ${store.revision()}`);
    await store.close();
  });
});
