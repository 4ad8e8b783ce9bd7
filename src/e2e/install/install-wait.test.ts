/**
 * `kruise install --wait` (docs/design/manager.md §13) on `kruise up` without Kruise: every object as it
 * is applied, then the wait for the manager Deployment and daemon DaemonSet (run on a simulated
 * node) as plain lines, since the output is not a terminal.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startUp, type UpProcess } from '../../testing/process.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
let dir = '';
let up: UpProcess;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-install-wait-'));
  up = await startUp(['--port', '0', '--data-dir', path.join(dir, 'up'), '--nodes', '1', '--in-memory', '--no-kruise-install', '--no-kruise-daemon'], 60_000);
});
after(async () => {
  up?.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

test('kruise install --wait prints each applied object, then waits for the manager and the daemons to be available', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, 'install', '--wait', '90s', '--kubeconfig', path.join(dir, 'up', 'kubeconfig')], { timeout: 120_000 },
      (e, out, err) => resolve({ code: e ? 1 : 0, stdout: out, stderr: err }));
  });
  assert.equal(code, 0, stderr);
  const lines = stdout.trimEnd().split('\n');
  assert.ok(!stdout.includes('\r'), 'no live line when the output is not a terminal');
  const installed = lines.findIndex((l) => /^kruise installed: \d+ objects applied$/.test(l));
  assert.ok(installed > 0 && lines.slice(0, installed).every((l) => / applied$/.test(l)), stdout);
  assert.ok(lines.slice(0, installed).includes('deployment/kruise-controller-manager applied'));
  const waits = lines.slice(installed + 1);
  // The manager is waited for first; the daemons may still be starting once it is ready.
  const managerReady = waits.findIndex((l) => /^deployment kruise-system\/kruise-controller-manager ready: 2\/2 available \(\d+s\)$/.test(l));
  assert.ok(managerReady >= 0, stdout);
  for (const l of waits.slice(0, managerReady)) assert.match(l, /^waiting for deployment kruise-system\/kruise-controller-manager: \d+\/2 available$/);
  for (const l of waits.slice(managerReady + 1, -1)) assert.match(l, /^waiting for daemonset kruise-system\/kruise-daemon: \d+\/\d+ available$/);
  assert.match(waits.at(-1)!, /^daemonset kruise-system\/kruise-daemon ready: 1\/1 available \(\d+s\)$/);
});
