/** Requests and watches share one HTTP/2 connection (h2-session.ts); a server without h2 still gets them over HTTP/1.1. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import net from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigMaps } from '../api/resource-type.js';
import { generateCA, issueServingCert } from '../machinery/certs.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { createHttpClient } from './http-client.js';
import { configMap, record } from './client-testkit.test.js';

function kubeConfig(server: string, token: string, caPem: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'c', server, skipTLSVerify: false, caData: Buffer.from(caPem).toString('base64') }, { name: 'u', token });
  return kc;
}

/** A TCP relay to `port` that counts the connections made through it. */
async function countingRelay(port: number): Promise<{ port: number; connections: () => number; close: () => void }> {
  let connections = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    connections++;
    const outbound = net.connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) { open.add(s); s.on('error', () => undefined); }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port, connections: () => connections,
    close: () => { for (const s of open) s.destroy(); server.close(); },
  };
}

describe('watches over HTTP/2', () => {
  let env: TestControlPlane;
  before(async () => { env = await startTestControlPlane(); });
  after(() => env.stop());

  test('five watches and the requests of one client use one connection, and each watch sees the events', async () => {
    const relay = await countingRelay(Number(new URL(env.plane.url).port));
    const watching = createHttpClient({ kubeConfig: kubeConfig(`https://127.0.0.1:${relay.port}`, env.plane.pki.adminToken, env.plane.pki.ca.certPem) });
    const writer = createHttpClient({ kubeconfigPath: env.kubeconfig });
    const recorders = Array.from({ length: 5 }, () => record(watching, ConfigMaps, { namespace: 'default', labelSelector: 'h2=yes' }));
    try {
      await writer.create(ConfigMaps, configMap('default', 'seen-by-five', {}, { h2: 'yes' }));
      for (const r of recorders) await r.until(1);
      assert.deepEqual(recorders.map((r) => `${r.events[0]!.type} ${r.events[0]!.object.metadata.name}`), Array(5).fill('ADDED seen-by-five'));
      // plain requests, ten at once, on the same session
      await Promise.all(Array.from({ length: 10 }, (_, i) => watching.create(ConfigMaps, configMap('default', `over-h2-${i}`, { n: String(i) }))));
      const read = await watching.get(ConfigMaps, 'default', 'over-h2-7') as { data?: Record<string, string> };
      assert.equal(read.data?.n, '7');
      const missing = await watching.get(ConfigMaps, 'default', 'not-there').then(() => 'found', (e: Error) => e.message);
      assert.match(missing, /not found/);
      assert.equal(relay.connections(), 1);
    } finally {
      for (const r of recorders) r.handle.stop();
      relay.close();
    }
  });

  test('a server that only speaks HTTP/1.1 gets its watches over HTTP/1.1', async () => {
    const ca = await generateCA('h1-ca');
    const serving = await issueServingCert(ca, ['127.0.0.1']);
    const event = { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-h1', namespace: 'default', resourceVersion: '7' } } };
    const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-http-version': req.httpVersion });
      res.write(`${JSON.stringify(event)}\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = createHttpClient({ kubeConfig: kubeConfig(`https://127.0.0.1:${(server.address() as net.AddressInfo).port}`, 't', ca.certPem) });
    const r = record(client, ConfigMaps, { namespace: 'default', resourceVersion: '1' });
    try {
      await r.until(1);
      assert.equal(r.events[0]!.object.metadata.name, 'over-h1');
    } finally {
      r.handle.stop();
      server.closeAllConnections();
      server.close();
    }
  });
});
