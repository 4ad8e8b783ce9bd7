/** Bad requests get the matching 4xx Status naming the problem; the server keeps serving. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestControlPlane } from '../../testing/control-plane.js';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';

describe('bad input', () => {
  const { env, api } = controlPlaneForSuite();

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
    { name: 'JSON nested 5,000 levels deep', method: 'POST', path: cms, body: `{"metadata":{"name":"deep"},"data":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`, status: 400, reason: 'BadRequest', message: /nested more than 1000 levels deep/ },
    { name: 'deep nesting in a merge patch', method: 'PATCH', path: `${cms}/x`, body: `{"data":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`, headers: { 'content-type': 'application/merge-patch+json' }, status: 400, reason: 'BadRequest', message: /nested more than 1000 levels deep/ },
    { name: 'a path escape of bytes that are not UTF-8', method: 'GET', path: `${cms}/%ff`, body: undefined, status: 404, reason: 'NotFound', message: /configmaps "\uFFFD" not found/ },
    { name: 'a malformed path escape', method: 'GET', path: `${cms}/%zz`, body: undefined, status: 400, reason: 'BadRequest', message: /invalid URL escape in path segment "%zz"/ },
    // Built-in kinds decode into Go types; messages as kube-apiserver v1.32 gives them.
    { name: 'a number where a string map value goes', method: 'POST', path: cms, body: { metadata: { name: 'typed' }, data: { a: 1 } }, status: 400, reason: 'BadRequest', message: /^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/ },
    { name: 'a string where a map goes', method: 'POST', path: cms, body: { metadata: { name: 'typed' }, data: 'str' }, status: 400, reason: 'BadRequest', message: /^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap\.data of type map\[string\]string$/ },
    { name: 'a number where a label value goes', method: 'POST', path: cms, body: { metadata: { name: 'typed', labels: { a: 1 } } }, status: 400, reason: 'BadRequest', message: /json: cannot unmarshal number into Go struct field ObjectMeta\.metadata\.labels of type string$/ },
    { name: 'a string where an int64 goes', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { metadata: { name: 'typed' }, spec: { activeDeadlineSeconds: 'x', containers: [{ name: 'c', image: 'i' }] } }, status: 400, reason: 'BadRequest', message: /^Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec\.spec\.activeDeadlineSeconds of type int64$/ },
    { name: 'an object where a list goes', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { metadata: { name: 'typed' }, spec: { containers: { name: 'c' } } }, status: 400, reason: 'BadRequest', message: /json: cannot unmarshal object into Go struct field PodSpec\.spec\.containers of type \[\]v1\.Container$/ },
    { name: 'a fraction and an overflow where an int32 goes', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { metadata: { name: 'typed' }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 99999999999 }] }] } }, status: 400, reason: 'BadRequest', message: /json: cannot unmarshal number 99999999999 into Go struct field ContainerPort\.spec\.containers\.ports\.containerPort of type int32$/ },
    { name: 'a bool where an int-or-string goes', method: 'POST', path: '/api/v1/namespaces/default/services', body: { metadata: { name: 'typed' }, spec: { ports: [{ port: 80, targetPort: true }] } }, status: 400, reason: 'BadRequest', message: /^Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort\.spec\.ports\.targetPort of type int32$/ },
    { name: 'a string replica count', method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', body: { metadata: { name: 'typed' }, spec: { replicas: '3', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }, status: 400, reason: 'BadRequest', message: /^Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/ },
    { name: 'a bool where a quantity goes', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { metadata: { name: 'typed' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: true } } }] } }, status: 400, reason: 'BadRequest', message: /^Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression/ },
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

  test('a merge patch that gives an int64 a string is an invalid patch (422), and the pod is unchanged', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    assert.equal((await api.request('POST', pods, { metadata: { name: 'patched' }, spec: { containers: [{ name: 'c', image: 'i' }] } })).status, 201);
    const r = await api.request('PATCH', `${pods}/patched`, '{"spec":{"activeDeadlineSeconds":"notanumber"}}', { 'content-type': 'application/merge-patch+json' });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.match(r.body.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Pod\\".*": json: cannot unmarshal string into Go struct field PodSpec\.spec\.activeDeadlineSeconds of type int64$/);
    assert.equal((await api.request('GET', `${pods}/patched`)).body.spec.activeDeadlineSeconds, undefined);
  });

  test('unknown fields of a built-in kind are dropped, not stored (fieldValidation Ignore and Warn)', async () => {
    const ignored = await api.request('POST', `${cms}?fieldValidation=Ignore`, { metadata: { name: 'unknown-ignored' }, bogus: 1, data: { a: 'b', } });
    assert.equal(ignored.status, 201);
    assert.equal(ignored.body.bogus, undefined);
    const warned = await api.request('POST', cms, { metadata: { name: 'unknown-warned' }, bogus: 1 });
    assert.equal(warned.status, 201);
    assert.equal((await api.request('GET', `${cms}/unknown-warned`)).body.bogus, undefined);
    assert.equal((await api.request('GET', `${cms}/unknown-ignored`)).body.bogus, undefined);
  });

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
