/** `kruise manager` against an API server by kubeconfig: gates, leader election Lease, health endpoint. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { createInProcessClient } from '../../client/index.js';
import { installKruise } from '../../install/install.js';
import { apiClientFromKubeconfig, stopChild } from '../../testing/process.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');

/** Loopback only, a free webhook port and certificates in the test's own dir: parallel runs never clash. */
const managerEnv = (dir: string) => ({ ...process.env, WEBHOOK_PORT: '0', WEBHOOK_HOST: '127.0.0.1', WEBHOOK_CERT_DIR: path.join(dir, 'webhook-certs') });
const loopback = ['--webhook-bind-address', '127.0.0.1'];

describe('kruise manager', () => {
  let env: TestControlPlane;
  let child: ChildProcess | undefined;
  before(async () => {
    env = await startTestControlPlane();
    await installKruise(createInProcessClient(env.plane.handler));
  });
  after(async () => {
    if (child) await stopChild(child);
    await env.stop();
  });

  test('starts, reports its feature gates, takes the leader lease and serves /healthz', async () => {
    child = spawn(process.execPath, [bin, 'manager', '--kubeconfig', env.kubeconfig, '--health-addr', '127.0.0.1:0', '--feature-gates', 'ResourceDistributionGate=true,PodWebhook=false', ...loopback], {
      env: managerEnv(env.dir), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => { out += c; });
    child.stderr!.on('data', (c: Buffer) => { out += c; });
    for (let i = 0; i < 200 && !/manager ready/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /kruise manager ready/);
    assert.match(out, /ResourceDistributionGate/);
    assert.doesNotMatch(out.split('feature gates on:')[1] ?? '', /WorkloadSpread/, 'PodWebhook=false turns WorkloadSpread off');
    const port = Number(/"port":(\d+)/.exec(out)?.[1]);
    const health = await new Promise<string>((resolve, reject) => http.get(`http://127.0.0.1:${port}/healthz`, (res) => { let b = ''; res.on('data', (c) => { b += c; }); res.on('end', () => resolve(`${res.statusCode} ${b}`)); }).on('error', reject));
    assert.match(health, /^200/);
    const api = await apiClientFromKubeconfig(env.kubeconfig);
    let holder = '';
    for (let i = 0; i < 100 && !holder; i++) {
      const lease = await api.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager');
      holder = lease.body?.spec?.holderIdentity ?? '';
      if (!holder) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(holder, 'the manager holds the kruise-manager lease');
  });

  test('an unknown feature gate is a clear error', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, 'manager', '--kubeconfig', env.kubeconfig, '--feature-gates', 'Bogus=true', ...loopback], { env: managerEnv(env.dir) }, (error, _out, stderr) => resolve({ code: error ? 1 : 0, stderr }));
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unrecognized feature gate: Bogus/);
  });
});
