/** The host network as probes meet it, against loopback listeners only. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostNetwork } from './network.js';

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

test('tcpSocket and httpGet over the host network: 2xx/3xx succeed, other codes and closed ports fail as kubelet words it', async () => {
  const seen: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.statusCode = req.url === '/healthz' ? 200 : req.url === '/moved' ? 302 : 500;
    res.end();
  });
  const port = await listen(server);
  const get = (path: string) => hostNetwork.httpGet({ scheme: 'HTTP', host: '127.0.0.1', port, path, headers: [{ name: 'X-Probe', value: 'yes' }] }, 1000);
  assert.deepEqual(await hostNetwork.tcp('127.0.0.1', port, 1000), { ok: true, message: '' });
  assert.deepEqual(await get('/healthz'), { ok: true, message: '' });
  assert.deepEqual(await get('/moved'), { ok: true, message: '' });
  assert.deepEqual(await get('/broken'), { ok: false, message: 'HTTP probe failed with statuscode: 500' });
  assert.equal(seen[0]['x-probe'], 'yes');
  await close(server);
  assert.deepEqual(await hostNetwork.tcp('127.0.0.1', port, 1000), { ok: false, message: `dial tcp 127.0.0.1:${port}: connect: connection refused` });
  assert.deepEqual(await get('/healthz'), { ok: false, message: `Get "http://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused` });
});
