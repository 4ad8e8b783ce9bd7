/** HTTP-only behaviour: configuration sources, transport failures, user agent and throttling. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigMaps } from '../api/resource-type.js';
import { StatusError } from '../machinery/errors.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { createHttpClient } from './http-client.js';
import { configMap, record, rejectsWith } from './client-testkit.test.js';

function kubeConfig(server: string, token: string, caPem?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: 'c', server, skipTLSVerify: false, caData: caPem ? Buffer.from(caPem).toString('base64') : undefined },
    { name: 'u', token },
  );
  return kc;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('http client', () => {
  let env: TestControlPlane;
  before(async () => { env = await startTestControlPlane(); });
  after(() => env.stop());

  test('accepts a KubeConfig object and sends the user agent (default field manager)', async () => {
    const client = createHttpClient({ kubeConfig: kubeConfig(env.plane.url, env.plane.pki.adminToken, env.plane.pki.ca.certPem), userAgent: 'cloneset-controller/v1.2' });
    const cm = await client.create(ConfigMaps, configMap('default', 'ua'));
    assert.equal(cm.metadata.managedFields?.[0]?.manager, 'cloneset-controller');
  });

  test('a wrong token is 401 Unauthorized', async () => {
    const client = createHttpClient({ kubeConfig: kubeConfig(env.plane.url, 'wrong', env.plane.pki.ca.certPem) });
    await rejectsWith(client.get(ConfigMaps, 'default', 'ua'), 401, 'Unauthorized');
  });

  test('an untrusted server certificate is 503 with the TLS cause', async () => {
    const client = createHttpClient({ kubeConfig: kubeConfig(env.plane.url, env.plane.pki.adminToken) });
    const err = await rejectsWith(client.get(ConfigMaps, 'default', 'ua'), 503, 'ServiceUnavailable');
    assert.match(err.message, /certificate/i);
  });

  test('a refused connection is 503 for requests and for watches', async () => {
    const client = createHttpClient({ kubeConfig: kubeConfig(`https://127.0.0.1:${await closedPort()}`, 't') });
    const err = await rejectsWith(client.list(ConfigMaps), 503, 'ServiceUnavailable');
    assert.match(err.message, /ECONNREFUSED/);
    const closed = await record(client, ConfigMaps, {}).closed();
    assert.ok(closed instanceof StatusError && closed.code === 503, String(closed));
  });

  test('a watch ended by the server calls onClose() without an error', async () => {
    const client = createHttpClient({ kubeconfigPath: env.kubeconfig });
    const w = record(client, ConfigMaps, { namespace: 'default' });
    await w.until(1); // the stream is open once the initial ADDED arrived
    env.plane.endWatches();
    assert.equal(await w.closed(), undefined);
  });

  test('qps throttles requests beyond the burst', async () => {
    const client = createHttpClient({ kubeconfigPath: env.kubeconfig, qps: 10 }); // burst 20
    const started = Date.now();
    await Promise.all(Array.from({ length: 22 }, () => client.get(ConfigMaps, 'default', 'ua')));
    assert.ok(Date.now() - started >= 180, `22 requests at qps 10 / burst 20 took ${Date.now() - started} ms`);
  });
});

describe('http client from a kubeconfig file', () => {
  let env: TestControlPlane;
  let dir: string;
  before(async () => {
    env = await startTestControlPlane();
    dir = await mkdtemp(path.join(os.tmpdir(), 'http-client-kubeconfig-'));
  });
  after(async () => {
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('a CA file and a token file named relative to the kubeconfig are read (a revoked token file means 401)', async () => {
    await writeFile(path.join(dir, 'ca.crt'), env.plane.pki.ca.certPem);
    await writeFile(path.join(dir, 'token'), `${env.plane.pki.adminToken}\n`);
    const kubeconfig = path.join(dir, 'config');
    await writeFile(kubeconfig, stringify({
      'current-context': 'k', clusters: [{ name: 'c', cluster: { server: env.plane.url, 'certificate-authority': 'ca.crt' } }],
      users: [{ name: 'u', user: { tokenFile: 'token' } }], contexts: [{ name: 'k', context: { cluster: 'c', user: 'u' } }],
    }));
    const client = createHttpClient({ kubeconfigPath: kubeconfig });
    await client.create(ConfigMaps, configMap('default', 'from-file'));
    assert.equal((await client.get(ConfigMaps, 'default', 'from-file')).metadata.name, 'from-file');
    await writeFile(path.join(dir, 'token'), 'revoked');
    const fresh = createHttpClient({ kubeconfigPath: kubeconfig });
    await rejectsWith(fresh.get(ConfigMaps, 'default', 'from-file'), 401, 'Unauthorized');
  });
});
