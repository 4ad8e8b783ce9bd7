import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Secrets } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/index.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { createFsCertWriter, createSecretCertWriter, ensureArtifacts, parseRenewBefore } from './index.js';

const DAY = 24 * 60 * 60 * 1000;
const fast = { algorithm: 'ecdsa-p256' as const };
const sans = (pem: string) => new X509Certificate(pem).subjectAltName;

describe('webhook certificate artefacts', () => {
  test('CA webhook-cert-ca and a serving pair for localhost + the DNS name, RSA 2048, 10 years', async () => {
    const { certs, changed } = await ensureArtifacts(undefined, { dnsName: 'kruise-webhook-service.kruise-system.svc' });
    assert.equal(changed, true);
    const ca = new X509Certificate(certs.caCertPem);
    const cert = new X509Certificate(certs.certPem);
    assert.equal(ca.subject, 'CN=webhook-cert-ca');
    assert.equal(ca.ca, true);
    assert.equal(cert.subjectAltName, 'DNS:localhost, DNS:kruise-webhook-service.kruise-system.svc');
    assert.ok(cert.checkIssued(ca) && cert.verify(ca.publicKey));
    assert.equal(createPrivateKey(certs.keyPem).asymmetricKeyDetails?.modulusLength, 2048);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    const years = (Date.parse(cert.validTo) - Date.now()) / (365 * DAY);
    assert.ok(years > 9.9 && years < 10.1, `valid for ${years} years`);
  });

  test('an IPv4 webhook host becomes an IP SAN', async () => {
    const { certs } = await ensureArtifacts(undefined, { dnsName: '127.0.0.1', ...fast });
    assert.equal(sans(certs.certPem), 'DNS:localhost, IP Address:127.0.0.1');
  });

  test('valid artefacts are reused; another host, expiry within renewBefore or a dying CA mint new ones', async () => {
    const first = (await ensureArtifacts(undefined, { dnsName: 'a.svc', ...fast })).certs;
    const again = await ensureArtifacts(first, { dnsName: 'a.svc', ...fast });
    assert.deepEqual([again.changed, again.certs], [false, first]);

    const otherHost = await ensureArtifacts(first, { dnsName: 'b.svc', ...fast });
    assert.equal(otherHost.changed, true);
    assert.equal(otherHost.certs.caCertPem, first.caCertPem, 'the CA is kept');
    assert.match(sans(otherHost.certs.certPem)!, /DNS:b\.svc/);

    const renewSoon = await ensureArtifacts(first, { dnsName: 'a.svc', renewBeforeMs: 3651 * DAY, ...fast });
    assert.equal(renewSoon.changed, true);
    assert.equal(renewSoon.certs.caCertPem, first.caCertPem);

    const in10Years = await ensureArtifacts(first, { dnsName: 'a.svc', now: () => new Date(Date.now() + 3400 * DAY), ...fast });
    assert.notEqual(in10Years.certs.caCertPem, first.caCertPem, 'a CA with less than a year left is replaced');

    const corrupt = await ensureArtifacts({ ...first, keyPem: renewSoon.certs.keyPem }, { dnsName: 'a.svc', ...fast });
    assert.equal(corrupt.changed, true, 'a key that does not match the certificate is replaced');
  });

  test('CERTS_RENEW_BEFORE durations', () => {
    assert.equal(parseRenewBefore('6m'), 180 * DAY);
    assert.equal(parseRenewBefore('1y'), 365 * DAY);
    assert.equal(parseRenewBefore('30d'), 30 * DAY);
    assert.throws(() => parseRenewBefore('6 months'), /expected <n>d, <n>m or <n>y/);
  });
});

describe('certificate writers', () => {
  let env: TestControlPlane;
  let client: Client;
  let dirs: string[] = [];
  const tmp = async () => { const d = await mkdtemp(path.join(os.tmpdir(), 'kruise-certs-')); dirs.push(d); return d; };

  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } });
  });
  after(async () => {
    await env.stop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  const secretWriter = (certDir: string, secretName = 'kruise-webhook-certs', dnsName = 'kruise-webhook-service.kruise-system.svc') =>
    createSecretCertWriter({ client, namespace: 'kruise-system', secretName, certDir, dnsName, ...fast });

  test('the Secret writer creates the Secret with all six keys and writes the cert dir', async () => {
    const dir = await tmp();
    const certs = await secretWriter(dir).ensure();
    const secret = await client.get<KObject & { data: Record<string, string> }>(Secrets, 'kruise-system', 'kruise-webhook-certs');
    assert.deepEqual(Object.keys(secret.data).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
    assert.equal(Buffer.from(secret.data['ca-cert.pem'], 'base64').toString(), certs.caCertPem);
    assert.equal(Buffer.from(secret.data['tls.crt'], 'base64').toString(), certs.certPem);
    assert.deepEqual((await readdir(dir)).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
    assert.equal(await readFile(path.join(dir, 'cert.pem'), 'utf8'), certs.certPem);
    assert.equal((await stat(path.join(dir, 'key.pem'))).mode & 0o777, 0o600);
  });

  test('a second replica reuses the stored certificates; two racing replicas agree', async () => {
    const first = await secretWriter(await tmp()).ensure();
    const second = await secretWriter(await tmp()).ensure();
    assert.deepEqual(second, first);
    const [a, b] = await Promise.all([secretWriter(await tmp(), 'race').ensure(), secretWriter(await tmp(), 'race').ensure()]);
    assert.deepEqual(a, b);
  });

  test('an emptied or foreign Secret is refilled, keeping its other keys', async () => {
    const before = await secretWriter(await tmp()).ensure();
    const secret = await client.get(Secrets, 'kruise-system', 'kruise-webhook-certs');
    await client.update(Secrets, { ...secret, data: { other: Buffer.from('x').toString('base64') } });
    const after = await secretWriter(await tmp()).ensure();
    assert.notEqual(after.caCertPem, before.caCertPem);
    const refilled = await client.get<KObject & { data: Record<string, string> }>(Secrets, 'kruise-system', 'kruise-webhook-certs');
    assert.equal(refilled.data.other, Buffer.from('x').toString('base64'));
    assert.equal(Buffer.from(refilled.data['cert.pem'], 'base64').toString(), after.certPem);
  });

  test('the fs writer keeps its certificates in the cert dir and reuses them', async () => {
    const dir = await tmp();
    const writer = createFsCertWriter({ certDir: dir, dnsName: '127.0.0.1', ...fast });
    const first = await writer.ensure();
    assert.deepEqual(await writer.ensure(), first);
    assert.equal(await readFile(path.join(dir, 'ca-cert.pem'), 'utf8'), first.caCertPem);
    assert.match(sans(first.certPem)!, /IP Address:127\.0\.0\.1/);
  });
});
