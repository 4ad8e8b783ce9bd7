/** API semantics a controller relies on, checked through raw HTTPS requests. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { TestControlPlane } from '../../testing/control-plane.js';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';

const deploy = (name: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
});

describe('API semantics', () => {
  const { env, api } = controlPlaneForSuite();

  test('create fills server fields and defaults; status is dropped on create', async () => {
    const r = await api.request('POST', '/apis/apps/v1/namespaces/default/deployments', { ...deploy('d1'), status: { replicas: 9 } });
    assert.equal(r.status, 201, r.text);
    const m = r.body.metadata;
    assert.match(m.uid, /^[0-9a-f-]{36}$/);
    assert.match(m.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(m.generation, 1);
    assert.equal(m.namespace, 'default');
    assert.equal(r.body.spec.replicas, 1);
    assert.equal(r.body.status, undefined);
    assert.equal(r.body.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  });

  test('generation moves on spec changes only; no-op writes keep the resourceVersion', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments/d1';
    const before = (await api.request('GET', path)).body;
    const noop = await api.request('PUT', path, before);
    assert.equal(noop.body.metadata.resourceVersion, before.metadata.resourceVersion);
    const labelled = await api.request('PATCH', path, { metadata: { labels: { x: 'y' } } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(labelled.body.metadata.generation, 1);
    assert.ok(Number(labelled.body.metadata.resourceVersion) > Number(before.metadata.resourceVersion));
    const status = await api.request('PATCH', `${path}/status`, { status: { replicas: 3 }, spec: { replicas: 7 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(status.body.status.replicas, 3);
    assert.equal(status.body.spec.replicas, 1, 'spec ignored on /status');
    assert.equal(status.body.metadata.generation, 1);
    const spec = await api.request('PATCH', path, { spec: { replicas: 4 }, status: { replicas: 0 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(spec.body.metadata.generation, 2);
    assert.equal(spec.body.status.replicas, 3, 'status ignored on the main resource');
  });

  test('stale resourceVersion conflicts, also inside a merge patch', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments/d1';
    const cur = (await api.request('GET', path)).body;
    const stale = { ...cur, metadata: { ...cur.metadata, resourceVersion: '1' } };
    const put = await api.request('PUT', path, stale);
    assert.equal(put.status, 409);
    assert.equal(put.body.reason, 'Conflict');
    assert.match(put.body.message, /^Operation cannot be fulfilled on deployments.apps "d1": the object has been modified/);
    const patch = await api.request('PATCH', path, { metadata: { resourceVersion: '1' }, spec: { replicas: 2 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(patch.status, 409);
  });

  test('list with limit/continue, label and field selectors', async () => {
    for (let i = 0; i < 7; i++) {
      await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `page-${i}`, labels: { page: 'yes', idx: String(i) } } });
    }
    const seen: string[] = [];
    let cont = '';
    do {
      const r = await api.request('GET', `/api/v1/namespaces/default/configmaps?labelSelector=page%3Dyes&limit=3${cont ? `&continue=${cont}` : ''}`);
      assert.equal(r.status, 200, r.text);
      seen.push(...r.body.items.map((c: { metadata: { name: string } }) => c.metadata.name));
      cont = r.body.metadata.continue ?? '';
    } while (cont);
    assert.deepEqual(seen, ['page-0', 'page-1', 'page-2', 'page-3', 'page-4', 'page-5', 'page-6']);
    const notin = await api.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=page,idx%20notin%20(0,1,2,3,4,5)');
    assert.deepEqual(notin.body.items.map((c: { metadata: { name: string } }) => c.metadata.name), ['page-6']);
    const byName = await api.request('GET', '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dpage-3');
    assert.equal(byName.body.items.length, 1);
  });

  test('dryRun=All validates without storing', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'dry' } });
    assert.equal(r.status, 201);
    assert.equal((await api.request('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
  });

  test('finalizers hold a deleted object until they are removed', async () => {
    const path = '/api/v1/namespaces/default/configmaps/held';
    await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const del = await api.request('DELETE', path);
    assert.equal(del.status, 200);
    assert.ok(del.body.metadata.deletionTimestamp);
    const adding = await api.request('PATCH', path, { metadata: { finalizers: ['example.com/hold', 'another/one'] } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(adding.status, 422);
    await api.request('PATCH', path, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal((await api.request('GET', path)).status, 404);
  });

  test('watch from a too-old resourceVersion gets an ERROR event with 410 Expired', async () => {
    const lines = await watchLines(env, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1', 1);
    // history is kept in memory from the start, so rv 1 is still watchable: it replays events
    assert.ok(lines.length >= 1);
    const big = await api.request('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=99999999');
    assert.equal(big.status, 504);
  });

  test('pods: binding, graceful deletion and namespace teardown', async () => {
    await api.request('POST', '/api/v1/namespaces', { metadata: { name: 'temp' } });
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const created = await api.request('POST', '/api/v1/namespaces/temp/pods', pod);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status.phase, 'Pending');
    const bind = await api.request('POST', '/api/v1/namespaces/temp/pods/p/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } });
    assert.equal(bind.status, 201, bind.text);
    const again = await api.request('POST', '/api/v1/namespaces/temp/pods/p/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n2' } });
    assert.equal(again.status, 409);
    const del = await api.request('DELETE', '/api/v1/namespaces/temp/pods/p');
    assert.equal(del.body.metadata.deletionGracePeriodSeconds, 30, 'a bound pod is deleted gracefully');
    const nsDel = await api.request('DELETE', '/api/v1/namespaces/temp');
    assert.equal(nsDel.body.status.phase, 'Terminating');
    const blocked = await api.request('POST', '/api/v1/namespaces/temp/configmaps', { metadata: { name: 'late' } });
    assert.equal(blocked.status, 403);
    await api.request('DELETE', '/api/v1/namespaces/temp/pods/p', { gracePeriodSeconds: 0 });
    for (let i = 0; i < 100 && (await api.request('GET', '/api/v1/namespaces/temp')).status !== 404; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal((await api.request('GET', '/api/v1/namespaces/temp')).status, 404);
  });
});

function watchLines(env: TestControlPlane, urlPath: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    let buf = '';
    const req = https.request(`${env.plane.url}${urlPath}`, { ca: env.plane.pki.ca.certPem, headers: { authorization: `Bearer ${env.plane.pki.adminToken}` } }, (res) => {
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        const parts = buf.split('\n');
        buf = parts.pop()!;
        lines.push(...parts.filter(Boolean));
        if (lines.length >= count) { req.destroy(); resolve(lines); }
      });
      res.on('end', () => resolve(lines));
    });
    req.on('error', (e) => (lines.length >= count ? resolve(lines) : reject(e)));
    req.end();
  });
}
