/**
 * What `kruise manager` keeps in memory (docs/design/performance.md §15): its module graph leaves
 * out what only some paths need (certificate minting, text logs, the kubeconfig YAML reader), and
 * mints certificates in a thread of its own (performance.md §18).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleTuningEnabled } from './manager-v8.js';

const here = path.dirname(fileURLToPath(import.meta.url));

test('loading the manager command loads no certificate minting, pino-pretty or YAML parser', () => {
  const script = `await import(${JSON.stringify(path.join(here, 'manager.js'))});
    const { createRequire } = await import('node:module');
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const loaded = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
  const packages = (name: string) => loaded.filter((f) => f.includes(`/node_modules/${name}/`));
  assert.ok(packages('pino').length > 0, 'the check sees CommonJS packages');
  assert.deepEqual(['@peculiar/x509', 'asn1js', 'pino-pretty', 'yaml'].filter((p) => packages(p).length > 0), []);
});

test('minting the webhook certificates leaves no X.509 library in the process (a thread of its own)', () => {
  const script = `const { ensureArtifacts } = await import(${JSON.stringify(path.join(here, '../webhooks/certs/index.js'))});
    const { certs, changed } = await ensureArtifacts(undefined, { dnsName: 'a.svc', algorithm: 'ecdsa-p256' });
    const { createRequire } = await import('node:module');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/@peculiar/'));
    console.log(JSON.stringify({ changed, pem: certs.certPem.split('\\n')[0], loaded }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as object;
  assert.deepEqual(out, { changed: true, pem: '-----BEGIN CERTIFICATE-----', loaded: [] });
});

test('reading a kubeconfig file leaves no YAML parser in the process', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kubeconfig-yaml-'));
  const file = path.join(dir, 'kubeconfig');
  await writeFile(file, ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: c', '  cluster:', '    server: https://127.0.0.1:6443',
    'contexts:', '- name: c', '  context: {cluster: c, user: u}', 'current-context: c', 'users:', '- name: u', '  user: {token: abc}', ''].join('\n'));
  const script = `const { loadKubeconfig } = await import(${JSON.stringify(path.join(here, '../client/kubeconfig.js'))});
    const config = loadKubeconfig({ path: ${JSON.stringify(file)} });
    const { createRequire } = await import('node:module');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/yaml/'));
    console.log(JSON.stringify({ server: config.server, token: config.token, loaded }));`;
  try {
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as object;
    assert.deepEqual(out, { server: 'https://127.0.0.1:6443', token: 'abc', loaded: [] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the idle heap tuning can be turned off to compare', () => {
  assert.equal(idleTuningEnabled({}), true);
  assert.equal(idleTuningEnabled({ KRUISE_MANAGER_IDLE_GC: 'off' }), false);
});
