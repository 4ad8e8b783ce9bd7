/** Bad requests get the matching 4xx Status naming the problem; the server keeps serving. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { apiClientFromKubeconfig, type ApiClient } from '../../testing/process.js';

describe('bad input', () => {
  let env: TestControlPlane;
  let api: ApiClient;
  before(async () => {
    env = await startTestControlPlane();
    api = await apiClientFromKubeconfig(env.kubeconfig);
  });
  after(async () => { await env.stop(); });

  const cms = '/api/v1/namespaces/default/configmaps';
  const cases: { name: string; method: string; path: string; body: unknown; headers?: Record<string, string>; status: number; reason: string; message: RegExp }[] = [
    { name: 'malformed JSON', method: 'POST', path: cms, body: '{"metadata": {', status: 400, reason: 'BadRequest', message: /json parse error/ },
    { name: 'malformed YAML apply', method: 'PATCH', path: `${cms}/x?fieldManager=t`, body: 'a: [b', headers: { 'content-type': 'application/apply-patch+yaml' }, status: 400, reason: 'BadRequest', message: /YAML/ },
    { name: 'wrong kind for the URL', method: 'POST', path: cms, body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }, status: 400, reason: 'BadRequest', message: /kind/ },
    { name: 'wrong apiVersion', method: 'POST', path: cms, body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } }, status: 400, reason: 'BadRequest', message: /API version/ },
    { name: 'unknown field under Strict', method: 'POST', path: `${cms}?fieldValidation=Strict`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, bogus: 1 }, status: 400, reason: 'BadRequest', message: /unknown field "bogus"/ },
    { name: 'invalid name', method: 'POST', path: cms, body: { metadata: { name: 'Not_Valid' } }, status: 422, reason: 'Invalid', message: /metadata\.name: Invalid value: "Not_Valid"/ },
    { name: 'missing name', method: 'POST', path: cms, body: { metadata: {} }, status: 422, reason: 'Invalid', message: /name or generateName is required/ },
    { name: 'namespace mismatch', method: 'POST', path: cms, body: { metadata: { name: 'x', namespace: 'kube-system' } }, status: 400, reason: 'BadRequest', message: /namespace of the provided object does not match/ },
    { name: 'missing namespace', method: 'POST', path: '/api/v1/namespaces/nope/configmaps', body: { metadata: { name: 'x' } }, status: 404, reason: 'NotFound', message: /namespaces "nope" not found/ },
    { name: 'unknown resource', method: 'GET', path: '/api/v1/namespaces/default/gizmos', body: undefined, status: 404, reason: 'NotFound', message: /could not find the requested resource/ },
    { name: 'bad label selector', method: 'GET', path: `${cms}?labelSelector=a%20in%20(`, body: undefined, status: 400, reason: 'BadRequest', message: /./ },
    { name: 'unsupported field selector', method: 'GET', path: `${cms}?fieldSelector=spec.foo%3Db`, body: undefined, status: 400, reason: 'BadRequest', message: /field label not supported: spec\.foo/ },
    { name: 'strategic patch type unknown', method: 'PATCH', path: `${cms}/x`, body: '{}', headers: { 'content-type': 'text/plain' }, status: 415, reason: 'UnsupportedMediaType', message: /./ },
    { name: 'oversized body', method: 'POST', path: cms, body: JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(4 * 1024 * 1024) } }), status: 413, reason: 'RequestEntityTooLarge', message: /too large/ },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const r = await api.request(c.method, c.path, c.body, c.headers);
      assert.equal(r.status, c.status, r.text);
      assert.equal(r.body?.kind, 'Status');
      assert.equal(r.body.reason, c.reason);
      assert.equal(r.body.code, c.status);
      assert.match(r.body.message, c.message);
    });
  }

  test('the server still serves after all of it', async () => {
    const r = await api.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200);
  });

  test('requests without credentials run as system:anonymous: RBAC forbids resources, /version stays open', async () => {
    const anon = await fetchAnonymous(env, '/api/v1/namespaces');
    assert.equal(anon.status, 403);
    assert.equal(JSON.parse(anon.text).message, 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope');
    assert.equal((await fetchAnonymous(env, '/version')).status, 200);
    assert.equal((await fetchAnonymous(env, '/api/v1/namespaces', { authorization: 'Bearer wrong' })).status, 401);
  });
});

async function fetchAnonymous(env: TestControlPlane, urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const https = await import('node:https');
  return new Promise((resolve, reject) => {
    const req = https.request(`${env.plane.url}${urlPath}`, { ca: env.plane.pki.ca.certPem, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
