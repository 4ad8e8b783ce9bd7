/**
 * What the store promises about its directory (docs/design/storage.md §9-§11): damage is found and
 * named, never served; one process per directory; owner-only files; the older layout upgraded;
 * verify/repair keep what verifies. The full-disk case lives in disk-full.test.ts.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { KObject } from '../../api/meta.js';
import { createFileStore } from './file-store.js';
import { repairStore, verifyStore } from './repair.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'store-integrity-'));
  dirs.push(dir);
  return dir;
}

const cm = (name: string, v: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns1' }, data: { v } });

/** A closed store with creates, updates and deletes; returns its dir and final listing. */
async function writtenStore(options: { snapshotAt?: number } = {}): Promise<{ dir: string; listing: string[] }> {
  const dir = await tempDir();
  const store = await createFileStore({ dir, snapshotEveryBytes: options.snapshotAt });
  for (let i = 0; i < 12; i++) await store.create(`/cm/ns1/o${i}`, cm(`o${i}`, 'é€' + String(i)));
  for (let i = 0; i < 12; i += 3) await store.update(`/cm/ns1/o${i}`, cm(`o${i}`, `changed ${i}`));
  await store.delete('/cm/ns1/o5');
  const listing = store.list('/').items.map((o) => `${o.key}@${o.rv}=${JSON.stringify(o.object.data)}`);
  await store.close();
  return { dir, listing };
}

async function walOf(dir: string): Promise<string> {
  return join(dir, (await readdir(dir)).filter((f) => f.startsWith('wal-')).sort().at(-1)!);
}

async function listingOf(dir: string): Promise<string[]> {
  const store = await createFileStore({ dir, onRecoveryNote: () => {} });
  const listing = store.list('/').items.map((o) => `${o.key}@${o.rv}=${JSON.stringify(o.object.data)}`);
  await store.close();
  return listing;
}

async function flipByte(path: string, offset: number, mask: number): Promise<void> {
  const bytes = await readFile(path);
  bytes[offset] = bytes[offset]! ^ mask;
  await writeFile(path, bytes);
}

/** Start of the line holding `offset` in the original bytes (where the damage is reported). */
const lineStart = (bytes: Buffer, offset: number) => (offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1);

describe('store integrity: damage is named, never served', () => {
  test('a changed byte anywhere in the WAL (but its final newline) refuses to start at that record', async () => {
    const { dir } = await writtenStore();
    const original = await readFile(await walOf(dir));
    let cases = 0;
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: original.length - 2 }), fc.integer({ min: 1, max: 255 }), async (offset, mask) => {
      const copy = await tempDir();
      await cp(dir, copy, { recursive: true });
      await flipByte(await walOf(copy), offset, mask);
      const name = (await walOf(copy)).split('/').at(-1)!;
      await assert.rejects(createFileStore({ dir: copy }), (err: Error) => {
        assert.match(err.message, new RegExp(`is damaged: ${name} at byte ${lineStart(original, offset)}: `));
        assert.match(err.message, /kruise store repair/);
        return true;
      });
      cases++;
      await rm(copy, { recursive: true });
    }), { numRuns: 150 });
    assert.equal(cases, 150);
  });

  test('a changed byte anywhere in the snapshot refuses to start', async () => {
    const { dir } = await writtenStore({ snapshotAt: 600 });
    const snapshot = join(dir, 'snapshot.json');
    const original = await readFile(snapshot);
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: original.length - 1 }), fc.integer({ min: 1, max: 255 }), async (offset, mask) => {
      const copy = await tempDir();
      await cp(dir, copy, { recursive: true });
      await flipByte(join(copy, 'snapshot.json'), offset, mask);
      await assert.rejects(createFileStore({ dir: copy }), /is damaged: snapshot\.json at byte \d+/);
      await rm(copy, { recursive: true });
    }), { numRuns: 100 });
  });

  test('cutting the WAL short: the final newline alone loses nothing; more cuts off only the last record, and says so', async () => {
    const { dir, listing } = await writtenStore();
    const original = await readFile(await walOf(dir));
    const lastLine = original.length - lineStart(original, original.length - 1);
    for (let cut = 1; cut < lastLine; cut++) {
      const copy = await tempDir();
      await cp(dir, copy, { recursive: true });
      await truncate(await walOf(copy), original.length - cut);
      const notes: string[] = [];
      const store = await createFileStore({ dir: copy, onRecoveryNote: (m) => notes.push(m) });
      const now = store.list('/').items.map((o) => `${o.key}@${o.rv}=${JSON.stringify(o.object.data)}`);
      await store.close();
      if (cut === 1) {
        assert.deepEqual(now, listing, 'a record missing only its newline is whole');
        assert.deepEqual(notes, []);
      } else {
        assert.equal(notes.length, 1, `cut ${cut}`);
        assert.match(notes[0]!, /a record torn by a crash/);
        // The last record deleted o5: cut off, o5 is back as created and nothing else changed.
        assert.deepEqual(now.filter((l) => !l.startsWith('/cm/ns1/o5@')), listing);
        assert.ok(now.includes('/cm/ns1/o5@6={"v":"é€5"}'), now.join());
      }
      await rm(copy, { recursive: true });
    }
  });

  test('a record removed from the middle of the WAL is a gap: the store names the revisions that follow each other', async () => {
    const { dir } = await writtenStore();
    const wal = await walOf(dir);
    const lines = (await readFile(wal, 'utf8')).split('\n');
    lines.splice(4, 1);
    await writeFile(wal, lines.join('\n'));
    await assert.rejects(createFileStore({ dir }), /at byte \d+: revision 6 follows revision 4/);
  });

  test('a deleted WAL file is an error, with or without a snapshot, never a silent rewind', async () => {
    const plain = await writtenStore();
    await unlink(await walOf(plain.dir));
    await assert.rejects(createFileStore({ dir: plain.dir }), /wal-0000000000000001\.log at byte 0: missing: the WAL file that follows the start of the store is gone/);
    const snapshotted = await writtenStore({ snapshotAt: 600 });
    await unlink(await walOf(snapshotted.dir));
    await assert.rejects(createFileStore({ dir: snapshotted.dir }), /missing: the WAL file that follows the snapshot at revision \d+ is gone/);
  });
});

describe('store integrity: the directory', () => {
  test('one process per directory: a second open fails naming the holder; a killed holder\'s lock is taken over', async () => {
    const dir = await tempDir();
    const store = await createFileStore({ dir });
    await assert.rejects(createFileStore({ dir }), new RegExp(`in use by this process \\(${process.pid}\\)`));
    await store.close();
    const fromSource = import.meta.url.endsWith('.ts');
    const script = fileURLToPath(new URL(fromSource ? './crash-writer.ts' : './crash-writer.js', import.meta.url));
    const child = spawn(process.execPath, [...(fromSource ? ['--import', 'tsx'] : []), script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    await assert.rejects(createFileStore({ dir }), new RegExp(`store directory .* is in use by process ${child.pid}: stop that process or choose another data directory`));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    const after = await createFileStore({ dir });
    assert.ok(after.revision() > 0);
    await after.close();
  });

  test('the directory is 0700 and every file 0600, also when an older directory had them open', async () => {
    const dir = await tempDir();
    const store = await createFileStore({ dir, snapshotEveryBytes: 200 });
    for (let i = 0; i < 5; i++) await store.create(`/s/${i}`, cm(`s${i}`, 'secret'));
    await store.close();
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    for (const name of await readdir(dir)) assert.equal((await stat(join(dir, name))).mode & 0o777, 0o600, name);
  });

  test('a directory of the older layout (no checksums) opens as it was and is rewritten with checksums', async () => {
    const dir = await tempDir();
    const obj = (name: string, rv: number) => JSON.stringify({ ...cm(name, name), metadata: { name, namespace: 'ns1', resourceVersion: String(rv) } });
    await writeFile(join(dir, 'snapshot.json'), `{"snapshot":1,"revision":2,"objects":2}\n{"key":"/cm/a","rv":1,"value":${obj('a', 1)}}\n{"key":"/cm/b","rv":2,"value":${obj('b', 2)}}\n`, { mode: 0o644 });
    await writeFile(join(dir, 'wal-0000000000000002.log'), `{"rv":2,"op":"put","key":"/cm/b","value":${obj('b', 2)}}\n{"rv":3,"op":"put","key":"/cm/c","value":${obj('c', 3)}}\n{"rv":4,"op":"del","key":"/cm/a"}\n`, { mode: 0o644 });
    const notes: string[] = [];
    const store = await createFileStore({ dir, onRecoveryNote: (m) => notes.push(m) });
    assert.deepEqual(store.list('/').items.map((o) => `${o.key}@${o.rv}`), ['/cm/b@2', '/cm/c@3']);
    assert.equal(store.revision(), 4);
    assert.match(notes.join(), /rewritten with checksums at revision 4/);
    await store.create('/cm/d', cm('d', 'd'));
    await store.close();
    assert.equal(await readFile(join(dir, 'FORMAT'), 'utf8'), 'kruise-store 2\n');
    assert.match(await readFile(join(dir, 'snapshot.json'), 'utf8'), /^\{"snapshot":2,"revision":4,"objects":2,"wal":"wal-0000000000000005\.log"\}\t[0-9a-f]{8}\n/);
    assert.deepEqual((await listingOf(dir)).map((l) => l.split('=')[0]), ['/cm/b@2', '/cm/c@3', '/cm/d@5']);
    assert.equal((await stat(join(dir, 'snapshot.json'))).mode & 0o777, 0o600);
  });
});

describe('kruise store verify | repair', () => {
  test('verify names the damage; repair keeps every record before it, moves the original aside and the store starts', async () => {
    const { dir, listing } = await writtenStore();
    assert.match(JSON.stringify(await verifyStore(dir)), /"revision":17,.*"objects":11/);
    const wal = await walOf(dir);
    const original = await readFile(wal);
    const tenth = original.indexOf('"rv":10,');
    await flipByte(wal, tenth + 20, 0x04);
    const report = await verifyStore(dir);
    assert.equal(report.damage?.file, 'wal-0000000000000001.log');
    assert.equal(report.damage?.offset, lineStart(original, tenth));
    const { changes, report: after } = await repairStore(dir, new Date('2026-11-27T10:00:00Z'));
    assert.equal(changes.length, 1);
    assert.match(changes[0]!, /checksum mismatch: dropped 8 record\(s\) from there on; originals in .*damaged-2026-11-27T10-00-00-000Z/);
    assert.equal(after.damage, undefined);
    assert.equal(after.scanned?.revision, 9);
    assert.deepEqual(await readFile(join(dir, 'damaged-2026-11-27T10-00-00-000Z', 'wal-0000000000000001.log')), (() => {
      const b = Buffer.from(original);
      b[tenth + 20] = b[tenth + 20]! ^ 0x04;
      return b;
    })());
    const kept = await listingOf(dir);
    assert.equal(kept.length, 9);
    assert.ok(kept.every((k) => Number(/@(\d+)=/.exec(k)![1]) <= 9));
    assert.notDeepEqual(kept, listing);
  });

  test('repair of a damaged snapshot keeps the objects whose lines verify', async () => {
    const { dir } = await writtenStore({ snapshotAt: 600 });
    const snapshot = join(dir, 'snapshot.json');
    const lines = (await readFile(snapshot, 'utf8')).split('\n');
    const objects = lines.length - 2;
    lines[2] = lines[2]!.replace('"rv":', '"rv": ');
    await writeFile(snapshot, lines.join('\n'));
    assert.match((await verifyStore(dir)).damage?.message ?? '', /snapshot\.json at byte \d+: checksum mismatch/);
    const { changes, report } = await repairStore(dir);
    assert.match(changes[0]!, new RegExp(`snapshot\\.json: kept ${objects - 1} object\\(s\\), dropped 1 damaged line\\(s\\)`));
    assert.equal(report.damage, undefined);
  });
});
