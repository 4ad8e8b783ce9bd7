import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AdmissionReview, ConversionReview } from '../../api/admission.js';
import { createFsCertWriter } from '../certs/index.js';
import { allowed } from '../handlers.js';
import { startWebhookServer, type WebhookServer } from './server.js';

interface Reply { status: number; text: string; json?: unknown }

function post(port: number, ca: string, path: string, body: string | object, method = 'POST'): Promise<Reply> {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method, ca, servername: 'localhost', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c; });
      res.on('end', () => {
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode!, text, json });
      });
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : data);
  });
}

const review = (apiVersion: string, request: object) => ({ apiVersion, kind: 'AdmissionReview', request });
const conversion = (apiVersion: string, desiredAPIVersion: string, objects: object[]) => ({ apiVersion, kind: 'ConversionReview', request: { uid: 'c-1', desiredAPIVersion, objects } });
const job = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', metadata: { name: 'j', namespace: 'ns' }, spec: { parallelism: 2 } };

describe('webhook server', () => {
  let dir: string;
  let server: WebhookServer;
  let ca: string;
  const seen: string[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-webhook-server-'));
    ca = (await createFsCertWriter({ certDir: dir, dnsName: 'localhost', algorithm: 'ecdsa-p256' }).ensure()).caCertPem;
    const handler = async (req: { uid: string; operation: string }) => { seen.push(req.operation); return allowed(req); };
    server = await startWebhookServer({
      host: '127.0.0.1', port: 0, certDir: dir,
      handlers: new Map([['/validate-apps-kruise-io-cloneset', handler], ['/validate-apps-kruise-io-v1alpha1-cloneset', handler]]),
    });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('GET /healthz answers ok over TLS verified with the CA', async () => {
    const r = await post(server.port, ca, '/healthz', '', 'GET');
    assert.deepEqual([r.status, r.text], [200, 'ok']);
  });

  test('admission reviews reach the handler under the path and its alias, echoing the review version', async () => {
    const request = { uid: 'a-1', kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'CloneSet' }, operation: 'CREATE', object: { metadata: { name: 'x' } } };
    const v1 = await post(server.port, ca, '/validate-apps-kruise-io-cloneset', review('admission.k8s.io/v1', request));
    assert.equal(v1.status, 200);
    assert.deepEqual(v1.json, { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'a-1', allowed: true, status: { code: 200 } } });
    const legacy = await post(server.port, ca, '/validate-apps-kruise-io-v1alpha1-cloneset', review('admission.k8s.io/v1beta1', { ...request, operation: 'UPDATE' }));
    assert.equal((legacy.json as AdmissionReview).apiVersion, 'admission.k8s.io/v1beta1');
    assert.deepEqual(seen, ['CREATE', 'UPDATE']);
  });

  test('malformed bodies get 400, unknown paths 404, wrong methods 405', async () => {
    const garbage = await post(server.port, ca, '/validate-apps-kruise-io-cloneset', '{not json');
    assert.equal(garbage.status, 400);
    assert.match((garbage.json as AdmissionReview).response!.status!.message!, /couldn't decode the request body/);
    const noRequest = await post(server.port, ca, '/validate-apps-kruise-io-cloneset', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' });
    assert.equal(noRequest.status, 400);
    assert.equal((noRequest.json as AdmissionReview).response?.allowed, false);
    assert.equal((await post(server.port, ca, '/convert', 'garbage')).status, 400);
    assert.equal((await post(server.port, ca, '/convert', { kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1' })).status, 400);
    assert.equal((await post(server.port, ca, '/mutate-nothing', {})).status, 404);
    assert.equal((await post(server.port, ca, '/convert', '', 'GET')).status, 405);
  });

  test('/convert converts ConversionReview v1 and v1beta1', async () => {
    const r = await post(server.port, ca, '/convert', conversion('apiextensions.k8s.io/v1', 'apps.kruise.io/v1beta1', [job]));
    const body = r.json as ConversionReview;
    assert.equal(r.status, 200);
    assert.equal(body.apiVersion, 'apiextensions.k8s.io/v1');
    assert.deepEqual(body.response?.result, { status: 'Success' });
    assert.equal(body.response?.uid, 'c-1');
    assert.deepEqual(body.response?.convertedObjects.map((o) => [o.apiVersion, o.metadata.name]), [['apps.kruise.io/v1beta1', 'j']]);
    const beta = (await post(server.port, ca, '/convert', conversion('apiextensions.k8s.io/v1beta1', 'apps.kruise.io/v1alpha1', [{ ...job, apiVersion: 'apps.kruise.io/v1beta1' }]))).json as ConversionReview;
    assert.equal(beta.apiVersion, 'apiextensions.k8s.io/v1beta1');
    assert.equal(beta.response?.convertedObjects[0].apiVersion, 'apps.kruise.io/v1alpha1');
  });

  test('a conversion that cannot be done fails the review with a message', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    const body = (await post(server.port, ca, '/convert', conversion('apiextensions.k8s.io/v1', 'apps.kruise.io/v1beta1', [job, pod]))).json as ConversionReview;
    assert.equal(body.response?.result.status, 'Failure');
    assert.match(body.response!.result.message!, /unsupported conversion of v1 Pod to apps\.kruise\.io\/v1beta1/);
    assert.deepEqual(body.response?.convertedObjects, []);
  });

  test('requests are counted per webhook and code', async () => {
    const text = await server.registry.metrics();
    assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} [1-9]/);
    assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/validate-apps-kruise-io-cloneset",code="400"\} [1-9]/);
    assert.match(text, /controller_runtime_webhook_latency_seconds_count\{webhook="\/convert"\}/);
  });

  test('new certificates in the cert dir are served after a reload', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'kruise-webhook-other-'));
    const fresh = await createFsCertWriter({ certDir: other, dnsName: 'localhost', algorithm: 'ecdsa-p256' }).ensure();
    await createFsCertWriter({ certDir: dir, dnsName: 'localhost', algorithm: 'ecdsa-p256' }).ensure(); // unchanged: still valid
    assert.equal((await post(server.port, ca, '/healthz', '', 'GET')).status, 200);
    const { cp } = await import('node:fs/promises');
    for (const f of ['cert.pem', 'key.pem', 'ca-cert.pem', 'ca-key.pem']) await cp(path.join(other, f), path.join(dir, f));
    assert.equal(await server.reloadCerts(), true);
    assert.equal((await post(server.port, fresh.caCertPem, '/healthz', '', 'GET')).status, 200);
    await assert.rejects(post(server.port, ca, '/healthz', '', 'GET'), /self[- ]signed|unable to verify|certificate/i);
    await rm(other, { recursive: true, force: true });
  });
});
