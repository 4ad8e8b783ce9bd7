/**
 * The in-process client's requests (checked against a recording handler) and its isolation from
 * the store's objects.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMaps, Deployments, Nodes } from '../api/resource-type.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { createInProcessClient } from './in-process-client.js';
import type { ApiRequest, ApiResponse } from '../api/request.js';
import { configMap, record } from './client-testkit.test.js';

function recordingHandler(response: ApiResponse = { code: 200, body: { metadata: {} } }) {
  const seen: ApiRequest[] = [];
  return { seen, handle: async (req: ApiRequest) => { seen.push(req); return response; } };
}

const summary = (r: ApiRequest) => ({
  line: `${r.method} ${r.path}${r.query.size ? `?${r.query}` : ''}`,
  contentType: r.headers['content-type'], body: r.body ? JSON.parse(r.body.toString('utf8')) : undefined,
});

describe('in-process client requests', () => {
  test('look like HTTP requests: path, query, lower-cased headers, JSON body, user', async () => {
    const h = recordingHandler();
    const client = createInProcessClient(h, { username: 'alice', groups: ['devs'] }, 'agent/1');
    await client.create(ConfigMaps, { metadata: { name: 'x', namespace: 'n s' } }, { dryRun: true, fieldManager: 'm' });
    const req = h.seen[0];
    assert.deepEqual(summary(req), {
      line: 'POST /api/v1/namespaces/n%20s/configmaps?dryRun=All&fieldManager=m', contentType: 'application/json',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n s' } },
    });
    assert.equal(req.headers['user-agent'], 'agent/1');
    assert.deepEqual(req.user, { username: 'alice', groups: ['devs'] });
  });

  test('patch content types, subresources, delete options, watch query', async () => {
    const h = recordingHandler();
    const client = createInProcessClient(h);
    for (const type of ['json', 'merge', 'strategic', 'apply'] as const) await client.patch(Nodes, 'ignored', 'n1', type, {}, { fieldManager: 'f', force: true });
    assert.deepEqual(h.seen.map((r) => `${summary(r).line} ${r.headers['content-type']}`), [
      'PATCH /api/v1/nodes/n1?fieldManager=f application/json-patch+json',
      'PATCH /api/v1/nodes/n1?fieldManager=f application/merge-patch+json',
      'PATCH /api/v1/nodes/n1?fieldManager=f application/strategic-merge-patch+json',
      'PATCH /api/v1/nodes/n1?fieldManager=f&force=true application/apply-patch+yaml',
    ]);
    await client.patch(Deployments, 'ns', 'd', 'merge', { spec: { replicas: 2 } }, { subresource: 'scale' });
    await client.updateStatus(Deployments, { metadata: { name: 'd', namespace: 'ns' } });
    await client.delete(Deployments, 'ns', 'd', { propagationPolicy: 'Foreground', dryRun: true });
    assert.deepEqual(h.seen.slice(4).map(summary), [
      { line: 'PATCH /apis/apps/v1/namespaces/ns/deployments/d/scale', contentType: 'application/merge-patch+json', body: { spec: { replicas: 2 } } },
      { line: 'PUT /apis/apps/v1/namespaces/ns/deployments/d/status', contentType: 'application/json', body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' } } },
      { line: 'DELETE /apis/apps/v1/namespaces/ns/deployments/d?dryRun=All', contentType: 'application/json', body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' } },
    ]);
    client.watch(ConfigMaps, { labelSelector: 'a=b', resourceVersion: '5', allowWatchBookmarks: true, timeoutSeconds: 30 }, { onEvent() {}, onClose() {} }).stop();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(summary(h.seen[7]).line, 'GET /api/v1/configmaps?labelSelector=a%3Db&resourceVersion=5&allowWatchBookmarks=true&timeoutSeconds=30&watch=true');
  });

  test('a watch answered without a stream closes with the Status', async () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden', message: 'no' };
    const client = createInProcessClient(recordingHandler({ code: 403, body: status }));
    const err = await record(client, ConfigMaps, {}).closed();
    assert.deepEqual([(err as { code?: number }).code, (err as { reason?: string }).reason, err?.message], [403, 'Forbidden', 'no']);
  });
});

describe('in-process client against the control plane', () => {
  let env: TestControlPlane;
  before(async () => { env = await startTestControlPlane(); });
  after(() => env.stop());

  test('returned objects and watch events are copies, not the store\'s', async () => {
    const client = createInProcessClient(env.plane.handler);
    const w = record(client, ConfigMaps, { namespace: 'default', labelSelector: 'copy=yes' });
    const created = await client.create(ConfigMaps, configMap('default', 'copy', { a: '1' }, { copy: 'yes' }));
    await w.until(1);
    (created.data as Record<string, string>).a = 'changed';
    (w.events[0].object.data as Record<string, string>).a = 'changed too';
    assert.deepEqual((await client.get(ConfigMaps, 'default', 'copy')).data, { a: '1' });
    w.handle.stop();
  });
});
