import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { inCluster, loadKubeconfig } from './kubeconfig.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('kubeconfig reader', () => {
  let dir: string;
  const write = async (name: string, doc: unknown) => {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof doc === 'string' ? doc : stringify(doc));
    return file;
  };
  before(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'kubeconfig-test-')); });
  after(() => rm(dir, { recursive: true, force: true }));

  test('the current context picks cluster and user; -data fields are base64, file fields relative to the kubeconfig', async () => {
    await write('conf/pki/ca.crt', 'CA-FROM-FILE');
    await write('conf/pki/client.key', 'KEY-FROM-FILE');
    const file = await write('conf/config', {
      'current-context': 'b',
      clusters: [
        { name: 'one', cluster: { server: 'https://one:6443', 'certificate-authority-data': b64('CA-ONE') } },
        { name: 'two', cluster: { server: 'https://two:6443/base', 'certificate-authority': 'pki/ca.crt', 'tls-server-name': 'api.internal' } },
      ],
      users: [
        { name: 'alice', user: { token: 'alice-token' } },
        { name: 'bob', user: { 'client-certificate-data': b64('CERT-BOB'), 'client-key': 'pki/client.key', username: 'bob', password: 'pw' } },
      ],
      contexts: [{ name: 'a', context: { cluster: 'one', user: 'alice' } }, { name: 'b', context: { cluster: 'two', user: 'bob' } }],
    });
    assert.deepEqual(loadKubeconfig({ path: file }), {
      server: 'https://two:6443/base', ca: 'CA-FROM-FILE', tlsServerName: 'api.internal', cert: 'CERT-BOB', key: 'KEY-FROM-FILE', username: 'bob', password: 'pw',
    });
  });

  test('KUBECONFIG lists files: the first definition of a name and the first current-context win; missing files are skipped', async () => {
    const first = await write('merge/first', {
      clusters: [{ name: 'c', cluster: { server: 'https://first:1', 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: { tokenFile: 'token' } }],
    });
    const second = await write('merge/second', {
      'current-context': 'ctx',
      clusters: [{ name: 'c', cluster: { server: 'https://second:2' } }],
      users: [{ name: 'u', user: { token: 'ignored' } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    });
    const env = { KUBECONFIG: [first, path.join(dir, 'missing'), second].join(path.delimiter) };
    assert.deepEqual(loadKubeconfig({ env, home: dir }), { server: 'https://first:1', insecureSkipTlsVerify: true, tokenFile: path.join(dir, 'merge/token') });
  });

  test('exec plugins, auth providers and proxies are reported for the client-node fallback', async () => {
    const conf = (user: unknown, cluster: Record<string, unknown> = {}) => ({
      'current-context': 'x', clusters: [{ name: 'c', cluster: { server: 'https://s', ...cluster } }], users: [{ name: 'u', user }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    assert.equal(loadKubeconfig({ path: await write('exec', conf({ exec: { command: 'aws' } })) }).needs, 'exec');
    assert.equal(loadKubeconfig({ path: await write('provider', conf({ 'auth-provider': { name: 'oidc' } })) }).needs, 'auth-provider');
    assert.equal(loadKubeconfig({ path: await write('proxy', conf({ token: 't' }, { 'proxy-url': 'http://proxy:3128' })) }).needs, 'proxy-url');
    assert.equal(loadKubeconfig({ path: await write('plain', conf({ token: 't' })) }).needs, undefined);
  });

  test('no current context (or an unknown one) is an error', async () => {
    assert.throws(() => loadKubeconfig({ path: '/no/such/kubeconfig' }), /ENOENT/);
    const file = await write('nocontext', { clusters: [{ name: 'c', cluster: { server: 'https://s' } }] });
    assert.throws(() => loadKubeconfig({ path: file }), /no current cluster/);
  });

  test('default order: ~/.kube/config, then the in-cluster service account, then localhost:8080', async () => {
    const home = path.join(dir, 'home');
    const sa = path.join(dir, 'sa');
    await write('sa/token', 'sa-token\n');
    await write('sa/ca.crt', 'SA-CA');
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
    assert.deepEqual(loadKubeconfig({ env, home, serviceAccountDir: sa }), { server: 'https://[fd00::1]:443', ca: 'SA-CA', tokenFile: path.join(sa, 'token') });
    assert.deepEqual(loadKubeconfig({ env: {}, home, serviceAccountDir: sa }), { server: 'http://localhost:8080' });
    await write('home/.kube/config', { 'current-context': 'h', clusters: [{ name: 'c', cluster: { server: 'https://home' } }], contexts: [{ name: 'h', context: { cluster: 'c' } }] });
    assert.deepEqual(loadKubeconfig({ env, home, serviceAccountDir: sa }), { server: 'https://home' });
    assert.equal(inCluster({ KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '6443' }, sa).server, 'https://10.0.0.1:6443');
  });
});
