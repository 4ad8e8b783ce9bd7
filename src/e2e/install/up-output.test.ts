/**
 * What a person sees from `kruise up` (docs/design/manager.md §9): readable log lines by default, JSON
 * with `--log-format json`, and with `--update-kubeconfig` a `kruise` context in the user's own
 * kubeconfig that the real kubectl uses with no flags.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubectlBinary } from '../../testing/kubectl.js';
import { stopChild } from '../../testing/process.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');

/** Runs `kruise up` until its summary, then `then(dir)`, then SIGTERM; resolves stdout and stderr. */
async function up(args: string[], env: NodeJS.ProcessEnv, then: () => Promise<void> = async () => undefined): Promise<{ out: string; err: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-up-out-'));
  const child = spawn(process.execPath, [bin, 'up', '--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => { err += c; });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no summary:\n${out}\n${err}`)), 60_000);
      child.stdout.on('data', (c: Buffer) => { out += c; if (/Ctrl-C stops/.test(out)) { clearTimeout(timer); resolve(); } });
      child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${out}\n${err}`)); });
    });
    await then();
  } finally {
    child.removeAllListeners('exit');
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  }
  return { out, err };
}

test('text logs by default, JSON with --log-format json', async () => {
  const text = await up([], {});
  assert.match(text.err, /^\[\d\d:\d\d:\d\d\] INFO: kruise-webhooks: Webhooks ready/m);
  assert.doesNotMatch(text.err, /^\{"level"/m);
  const json = await up(['--log-format', 'json'], {});
  const lines = json.err.trim().split('\n');
  assert.ok(lines.length > 0 && lines.every((l) => JSON.parse(l).level !== undefined), json.err);
  assert.ok(lines.some((l) => JSON.parse(l).msg === 'Webhooks ready'));
  for (const r of [text, json]) assert.match(r.out, /^ {2}kubeconfig: .*\n {4}export KUBECONFIG=/m);
});

test('--update-kubeconfig: kubectl with no flags talks to the plane', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'kruise-home-'));
  try {
    const env = { HOME: home, KUBECONFIG: '' };
    const { out } = await up(['--update-kubeconfig'], env, async () => {
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const k = spawn(kubectlBinary(32), ['get', 'nodes', '-o', 'name'], { env: { ...process.env, ...env, KUBECONFIG: '' } });
        let stdout = '';
        let stderr = '';
        k.stdout.on('data', (c: Buffer) => { stdout += c; });
        k.stderr.on('data', (c: Buffer) => { stderr += c; });
        k.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'node/kruise-node-0\n');
    });
    assert.match(out, new RegExp(`context "kruise" merged into ${path.join(home, '.kube', 'config')}`));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
