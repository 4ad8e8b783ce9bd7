/**
 * The store's promises as a user of `kruise up` meets them (docs/design/storage.md §9-§11): a full
 * disk answers 503 and fails /readyz while it lasts and heals by itself; a second `kruise up` on the
 * same data directory is refused; a damaged store refuses to start and `kruise store repair` fixes it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiClientFromKubeconfig, startUp, stopChild, type UpProcess } from '../../testing/process.js';
import { eventually } from '../../testing/workload-env.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
const run = promisify(execFile);
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-integrity-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function stopOnExit(up: UpProcess): void {
  cleanups.push(() => stopChild(up.child, 'SIGKILL'));
}

const upArgs = (dir: string) => ['--port', '0', '--data-dir', dir, '--nodes', '0', '--no-kruise-manager', '--no-kruise-daemon'];

/** A small tmpfs of our own, or the reason there cannot be one. */
function smallFilesystem(dir: string, size: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    cleanups.push(async () => execFileSync('umount', ['-l', dir], { stdio: 'pipe' }));
    return undefined;
  } catch (err) {
    return `cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]})`;
  }
}

test('disk full: writes answer 503 and /readyz fails while it lasts; both recover by themselves; nothing acknowledged is lost', async (t) => {
  const dir = await tempDir();
  const skip = smallFilesystem(dir, '4m');
  if (skip) return t.skip(skip);
  const up = await startUp(upArgs(dir));
  stopOnExit(up);
  const api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  // Leave about 300 KiB free, then write 20 KiB ConfigMaps until the disk refuses one.
  const filler = path.join(dir, 'filler');
  const free = Number(execFileSync('df', ['--output=avail', '-B1', dir]).toString().split('\n')[1]);
  await writeFile(filler, Buffer.alloc(Math.max(0, free - 300 * 1024)));
  const acknowledged = new Map<string, string>();
  let refused: { status: number; body: { message: string; reason: string } } | undefined;
  for (let i = 0; i < 200 && !refused; i++) {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${i}` }, data: { pad: 'x'.repeat(20_000) } });
    if (r.status === 201) acknowledged.set(`cm-${i}`, r.body.metadata.resourceVersion);
    else refused = r;
  }
  assert.ok(refused, 'the disk filled up');
  assert.equal(refused.status, 503);
  assert.match(refused.body.message, /storage write failed, nothing was written: ENOSPC/);
  const readyz = await api.request('GET', '/readyz');
  assert.equal(readyz.status, 500);
  assert.match(readyz.text, /\[-\]store failed: reason withheld\nreadyz check failed/);
  assert.equal((await api.request('GET', '/livez')).status, 200, 'a full disk is not a reason to restart');
  const again = await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'while-full' }, data: { pad: 'x'.repeat(20_000) } });
  assert.equal(again.status, 503, 'still full');
  assert.equal((await api.request('GET', '/api/v1/namespaces/default/configmaps/while-full')).status, 404, 'a refused write is not served');

  await rm(filler);
  await eventually('readyz ok', async () => ((await api.request('GET', '/readyz')).status === 200 ? true : undefined));
  const healed = await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'after-space-freed' } });
  assert.equal(healed.status, 201);

  await stopChild(up.child, 'SIGKILL');
  const second = await startUp(upArgs(dir));
  stopOnExit(second);
  const api2 = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  const list = await api2.request('GET', '/api/v1/namespaces/default/configmaps');
  const stored = new Map<string, string>(list.body.items.map((c: { metadata: { name: string; resourceVersion: string } }) => [c.metadata.name, c.metadata.resourceVersion]));
  for (const [name, rv] of acknowledged) assert.equal(stored.get(name), rv, `${name} lost or changed`);
  assert.ok(stored.has('after-space-freed'));
  assert.ok(!stored.has('while-full'));
  console.log(`disk full: ${acknowledged.size} writes acknowledged before ENOSPC, all present after kill -9`);
});

test('a second kruise up on the same data directory is refused, naming the first one\'s PID; the first keeps serving', async () => {
  const dir = await tempDir();
  const first = await startUp(upArgs(dir));
  stopOnExit(first);
  await assert.rejects(startUp(upArgs(dir)), new RegExp(`store directory .*store is in use by process ${first.child.pid}: stop that process or choose another data directory`));
  const api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  assert.equal((await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'still-mine' } })).status, 201);
});

test('a damaged store refuses to start with the offset and the repair command; kruise store verify and repair fix it', async () => {
  const dir = await tempDir();
  const up = await startUp(upArgs(dir));
  const api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  for (let i = 0; i < 5; i++) assert.equal((await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${i}` }, data: { v: `value-${i}` } })).status, 201);
  await stopChild(up.child);
  const store = path.join(dir, 'store');
  const wal = path.join(store, (await readdir(store)).find((f) => f.startsWith('wal-'))!);
  const text = await readFile(wal, 'utf8');
  await writeFile(wal, text.replace('value-3', 'value-9'));

  await assert.rejects(startUp(upArgs(dir)), /is damaged: wal-\d+\.log at byte \d+: checksum mismatch\. Nothing was changed\. 'kruise store verify .*' reports the damage/);
  const verify = await run(process.execPath, [bin, 'store', 'verify', dir]).catch((e: { stdout: string; code: number }) => e);
  assert.equal((verify as { code?: number }).code, 1);
  assert.match(verify.stdout, /^damaged: wal-\d+\.log at byte \d+: checksum mismatch/);
  const repair = await run(process.execPath, [bin, 'store', 'repair', dir]);
  assert.match(repair.stdout, /repaired: wal-\d+\.log at byte \d+: checksum mismatch: dropped \d+ record\(s\) from there on; originals in .*damaged-/);
  assert.match(repair.stdout, /\nok: revision \d+, \d+ objects/);

  const again = await startUp(upArgs(dir));
  stopOnExit(again);
  const api2 = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  const names = (await api2.request('GET', '/api/v1/namespaces/default/configmaps')).body.items.map((c: { metadata: { name: string }; data?: { v?: string } }) => `${c.metadata.name}=${c.data?.v ?? ''}`);
  assert.deepEqual(names.filter((n: string) => n.startsWith('cm-')), ['cm-0=value-0', 'cm-1=value-1', 'cm-2=value-2'], 'kept what verifies, never the changed value');
});
