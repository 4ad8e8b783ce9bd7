import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { parse } from 'yaml';
import { createAuthenticator, type Authenticator } from './authn.js';
import { buildKubeconfig, writeKubeconfig } from './kubeconfig.js';
import { loadOrCreatePki, type ServerPki } from './pki.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';
const fakeCa = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('buildKubeconfig', () => {
  test('a token kubeconfig has the fields kubectl and client-node read', () => {
    const text = buildKubeconfig({
      server: 'https://127.0.0.1:6443',
      caPem: fakeCa,
      user: 'admin',
      token: 'tok',
      namespace: 'kruise-system',
    });
    const doc = parse(text);
    assert.equal(doc.apiVersion, 'v1');
    assert.equal(doc.kind, 'Config');
    assert.deepEqual(doc.clusters, [
      {
        name: 'kruise',
        cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64(fakeCa) },
      },
    ]);
    assert.deepEqual(doc.users, [{ name: 'kruise-admin', user: { token: 'tok' } }]);
    assert.deepEqual(doc.contexts, [
      { name: 'kruise', context: { cluster: 'kruise', user: 'kruise-admin', namespace: 'kruise-system' } },
    ]);
    assert.equal(doc['current-context'], 'kruise');
  });

  test('a client-certificate kubeconfig embeds certificate and key', () => {
    const clientCert = { certPem: 'CERT', keyPem: 'KEY' };
    const server = 'https://localhost:1';
    const doc = parse(buildKubeconfig({ server, caPem: fakeCa, user: 'admin', clientCert, clusterName: 'dev' }));
    assert.deepEqual(doc.users[0].user, { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') });
    assert.deepEqual(doc.contexts[0], { name: 'dev', context: { cluster: 'dev', user: 'dev-admin' } });
  });

  test('credentials and a valid server are required', () => {
    const noCreds = { server: 'https://x', caPem: fakeCa, user: 'admin' } as const;
    assert.throws(() => buildKubeconfig(noCreds), /token or a client/);
    assert.throws(() => buildKubeconfig({ server: 'not a url', caPem: fakeCa, user: 'admin', token: 't' }));
  });

  test('writeKubeconfig creates parent directories and a 0600 file', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kruise-kc-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'a', 'b', 'config');
    await writeKubeconfig(file, 'hello: world\n');
    assert.equal(await readFile(file, 'utf8'), 'hello: world\n');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });
});

type Headers = Record<string, string | string[] | undefined>;
type Req = { url?: string; httpVersion: string; headers: Headers; socket: unknown };
type Res = { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): unknown };

/** A stand-in API server: /version, /api, and /whoami echoing what the authenticator decided. */
function apiHandler(authn: Authenticator, port: () => number, protocols: string[]) {
  return (req: Req, res: Res) => void serveAuthenticated(authn, port, protocols, req, res);
}

async function serveAuthenticated(authn: Authenticator, port: () => number, protocols: string[], req: Req, res: Res) {
  protocols.push(req.httpVersion);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const raw = (req.socket as TLSSocket).getPeerCertificate().raw as Buffer | undefined;
  const user = await authn.authenticate({ headers: req.headers, peerCertificateDer: raw });
  const url = (req.url ?? '').split('?')[0];
  if (url === '/version') return send(200, { major: '1', minor: '32', gitVersion: 'v1.32.4' });
  if (url === '/api') {
    const serverAddressByClientCIDRs = [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${port()}` }];
    return send(200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs });
  }
  if (!user) {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
    return send(401, { ...status, message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  }
  if (url === '/whoami') return send(200, user);
  return send(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
}

describe('real TLS clients against the generated PKI', { timeout: 60_000 }, () => {
  let dir = '';
  let pki: ServerPki;
  type Served = { name: string; server: https.Server | http2.Http2SecureServer; port: number; protocols: string[] };
  const servers: Served[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kruise-tls-'));
    const started = performance.now();
    pki = await loadOrCreatePki(dir, { hosts: ['127.0.0.1', 'localhost', '::1'] });
    console.log(`# loadOrCreatePki (fresh): ${(performance.now() - started).toFixed(0)} ms`);
    const authn = createAuthenticator({
      caPem: pki.ca.certPem,
      tokens: { [pki.adminToken]: { username: 'admin', uid: 'token-uid', groups: ['system:masters'] } },
    });
    const tls = { key: pki.serving.keyPem, cert: pki.serving.certPem, requestCert: true, rejectUnauthorized: false };
    const make = {
      // HTTP/1.1 only, and it advertises the CA for client certificate selection
      https: (h: ReturnType<typeof apiHandler>) => https.createServer({ ...tls, ca: pki.ca.certPem }, h),
      // h2 + HTTP/1.1 on one port (spec finding 2), no CA list sent
      h2: (h: ReturnType<typeof apiHandler>) => http2.createSecureServer({ ...tls, allowHTTP1: true }, h),
    };
    for (const [name, create] of Object.entries(make)) {
      const entry = { name, port: 0, protocols: [] as string[] } as Served;
      entry.server = create(apiHandler(authn, () => entry.port, entry.protocols));
      await new Promise<void>((resolve) => entry.server.listen(0, '127.0.0.1', resolve));
      entry.port = (entry.server.address() as AddressInfo).port;
      servers.push(entry);
    }
  });

  after(async () => {
    for (const { server } of servers) {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await rm(dir, { recursive: true, force: true });
  });

  async function kubeconfigFor(port: number, name: string, creds: { token?: string; cert?: boolean }) {
    const file = path.join(dir, `${name}.kubeconfig`);
    const text = buildKubeconfig({
      server: `https://127.0.0.1:${port}`,
      caPem: pki.ca.certPem,
      user: 'admin',
      token: creds.token,
      clientCert: creds.cert ? pki.admin : undefined,
    });
    await writeKubeconfig(file, text);
    return file;
  }

  function kubectl(kubeconfig: string, ...args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
    const argv = ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args];
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
    return new Promise((resolve) =>
      execFile(KUBECTL, argv, { env, timeout: 20_000 }, (err, stdout, stderr) => resolve({ ok: !err, stdout, stderr })),
    );
  }

  const skip = existsSync(KUBECTL) ? false : `${KUBECTL} not installed`;
  for (const name of ['https', 'h2']) {
    const server = () => servers.find((s) => s.name === name)!; // filled in by before()

    test(`kubectl 1.32 ${name}: version over a token kubeconfig`, { skip }, async () => {
      const file = await kubeconfigFor(server().port, `${name}-token`, { token: pki.adminToken });
      const result = await kubectl(file, 'version', '-o', 'json');
      assert.ok(result.ok, result.stderr);
      assert.doesNotMatch(result.stderr, /x509|tls|certificate/i);
      assert.equal(JSON.parse(result.stdout).serverVersion.gitVersion, 'v1.32.4');
      const whoami = await kubectl(file, 'get', '--raw', '/whoami');
      const groups = ['system:masters', 'system:authenticated'];
      assert.deepEqual(JSON.parse(whoami.stdout), { username: 'admin', uid: 'token-uid', groups });
    });

    test(`kubectl 1.32 ${name}: client-certificate kubeconfig`, { skip }, async () => {
      const file = await kubeconfigFor(server().port, `${name}-cert`, { cert: true });
      const version = await kubectl(file, 'version', '-o', 'json');
      assert.ok(version.ok, version.stderr);
      assert.equal(JSON.parse(version.stdout).serverVersion.gitVersion, 'v1.32.4');
      const whoami = await kubectl(file, 'get', '--raw', '/whoami');
      assert.ok(whoami.ok, whoami.stderr);
      const groups = ['system:masters', 'system:authenticated'];
      assert.deepEqual(JSON.parse(whoami.stdout), { username: 'admin', groups });
    });

    test(`kubectl 1.32 ${name}: a wrong token is Unauthorized`, { skip }, async () => {
      const file = await kubeconfigFor(server().port, `${name}-bad`, { token: 'wrong-token' });
      const result = await kubectl(file, 'get', '--raw', '/whoami');
      assert.equal(result.ok, false);
      assert.match(result.stderr, /Unauthorized/);
    });
  }

  test('kubectl negotiates h2 when offered and HTTP/1.1 otherwise', { skip }, () => {
    assert.ok(servers.find((s) => s.name === 'h2')!.protocols.includes('2.0'));
    assert.deepEqual([...new Set(servers.find((s) => s.name === 'https')!.protocols)], ['1.1']);
  });

  type Reply = { status: number; body: string };
  function get(port: number, urlPath: string, options: https.RequestOptions): Promise<Reply> {
    const base = { host: '127.0.0.1', port, path: urlPath, ca: pki.ca.certPem, agent: false };
    return new Promise((resolve, reject) => {
      const req = https.request({ ...base, ...options }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('node https: client certificate, wrong token and anonymous access', async () => {
    for (const { port } of servers) {
      const cert = await get(port, '/whoami', { cert: pki.admin.certPem, key: pki.admin.keyPem });
      assert.equal(cert.status, 200);
      assert.equal(JSON.parse(cert.body).username, 'admin');
      const wrong = await get(port, '/whoami', { headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 401);
      assert.equal(JSON.parse(wrong.body).reason, 'Unauthorized');
      assert.equal((await get(port, '/version', {})).status, 200);
      const api = JSON.parse((await get(port, '/api', { servername: 'localhost' })).body);
      assert.equal(api.serverAddressByClientCIDRs[0].serverAddress, `127.0.0.1:${port}`);
    }
  });

  test('a client that does not trust the CA fails the TLS handshake', async () => {
    const untrusted = get(servers[0]!.port, '/version', { ca: undefined });
    await assert.rejects(untrusted, /self-signed|unable to verify|issuer/i);
  });
});
