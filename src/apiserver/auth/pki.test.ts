import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  generateCA,
  issueClientCert,
  issueServingCert,
  loadOrCreatePki,
  verifyClientCertificate,
} from './pki.js';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const der = (pem: string) => new X509Certificate(pem).raw;
const days = (n: number) => new Date(Date.now() + n * 24 * 60 * 60 * 1000);

describe('certificates', async () => {
  const started = performance.now();
  const ca = await generateCA('test-ca');
  const serving = await issueServingCert(ca, ['127.0.0.1', 'localhost', '::1']);
  const client = await issueClientCert(ca, 'jane', ['system:masters', 'devs']);
  const elapsedMs = performance.now() - started;

  test('key and certificate generation is fast', (t) => {
    t.diagnostic(`CA + serving + client certificate: ${elapsedMs.toFixed(0)} ms`);
    assert.ok(elapsedMs < 2000, `took ${elapsedMs} ms`);
  });

  test('the CA is a self-signed CA certificate with a PKCS#8 ECDSA P-256 key', () => {
    const cert = new X509Certificate(ca.certPem);
    assert.equal(cert.ca, true);
    assert.equal(cert.subject, 'CN=test-ca');
    assert.ok(cert.verify(cert.publicKey));
    assert.match(ca.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    const key = createPrivateKey(ca.keyPem);
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.ok(cert.checkPrivateKey(key));
  });

  test('the serving certificate has IP and DNS SANs, serverAuth, 1 year, signed by the CA', () => {
    const cert = new X509Certificate(serving.certPem);
    const caCert = new X509Certificate(ca.certPem);
    assert.equal(cert.ca, false);
    assert.ok(cert.checkIssued(caCert) && cert.verify(caCert.publicKey));
    assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(cert.checkIP('::1'), '::1');
    assert.equal(cert.checkHost('localhost', { subject: 'never' }), 'localhost');
    assert.equal(cert.checkHost('example.com'), undefined);
    assert.equal(cert.checkIP('10.0.0.1'), undefined);
    assert.deepEqual(cert.keyUsage, [SERVER_AUTH]);
    const lifetimeDays = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    assert.ok(lifetimeDays > 364 && lifetimeDays <= 366, `valid for ${lifetimeDays} days`);
    assert.ok(cert.checkPrivateKey(createPrivateKey(serving.keyPem)));
  });

  test('a serving certificate needs at least one host', async () => {
    await assert.rejects(issueServingCert(ca, []), /at least one host/);
  });

  test('the client certificate carries CN=user, O=groups and clientAuth', () => {
    const cert = new X509Certificate(client.certPem);
    assert.deepEqual(cert.keyUsage, [CLIENT_AUTH]);
    assert.deepEqual(verifyClientCertificate(ca.certPem, der(client.certPem)), {
      user: 'jane',
      groups: ['system:masters', 'devs'],
    });
  });

  test('verification rejects other CAs, wrong dates, server-only certs and garbage', async () => {
    const other = await generateCA('other-ca');
    const foreign = await issueClientCert(other, 'mallory', ['system:masters']);
    assert.equal(verifyClientCertificate(ca.certPem, der(foreign.certPem)), undefined);
    assert.equal(verifyClientCertificate(other.certPem, der(client.certPem)), undefined);
    assert.equal(verifyClientCertificate(ca.certPem, der(client.certPem), days(400)), undefined);
    assert.equal(verifyClientCertificate(ca.certPem, der(client.certPem), days(-1)), undefined);
    assert.ok(verifyClientCertificate(ca.certPem, der(client.certPem), days(300)));
    assert.equal(verifyClientCertificate(ca.certPem, der(serving.certPem)), undefined);
    assert.equal(verifyClientCertificate(ca.certPem, Buffer.from('not a certificate')), undefined);
  });
});

describe('loadOrCreatePki', () => {
  const hosts = ['127.0.0.1', 'localhost'];

  test('creates the files with private modes and reuses them on the next start', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kruise-pki-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const first = await loadOrCreatePki(dir, { hosts });
    const pki = path.join(dir, 'pki');
    for (const name of ['ca.key', 'apiserver.key', 'admin.key', 'token']) {
      assert.equal((await stat(path.join(pki, name))).mode & 0o777, 0o600, name);
    }
    assert.equal((await readFile(path.join(pki, 'ca.crt'), 'utf8')), first.ca.certPem);
    assert.match(first.adminToken, /^[A-Za-z0-9_-]{40,}$/);
    assert.deepEqual(verifyClientCertificate(first.ca.certPem, der(first.admin.certPem)), {
      user: 'admin',
      groups: ['system:masters'],
    });

    const second = await loadOrCreatePki(dir, { hosts });
    assert.deepEqual(second, first);
  });

  test('reissues only the serving certificate when the hosts grow', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kruise-pki-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const first = await loadOrCreatePki(dir, { hosts });
    const second = await loadOrCreatePki(dir, { hosts: [...hosts, '10.1.2.3', 'kruise.local'] });
    assert.deepEqual(second.ca, first.ca);
    assert.deepEqual(second.admin, first.admin);
    assert.notEqual(second.serving.certPem, first.serving.certPem);
    const cert = new X509Certificate(second.serving.certPem);
    assert.ok(cert.checkIP('10.1.2.3') && cert.checkHost('kruise.local') && cert.checkIP('127.0.0.1'));
  });

  test('replaces a damaged leaf certificate but keeps the CA', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kruise-pki-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const first = await loadOrCreatePki(dir, { hosts });
    await writeFile(path.join(dir, 'pki', 'admin.crt'), 'garbage');
    const second = await loadOrCreatePki(dir, { hosts });
    assert.deepEqual(second.ca, first.ca);
    assert.notEqual(second.admin.certPem, first.admin.certPem);
    assert.ok(verifyClientCertificate(second.ca.certPem, der(second.admin.certPem)));
  });
});
