/**
 * `kruise dashboard`'s backend over HTTP against an in-process API server (docs/design/dashboard.md
 * §4-§7), no browser needed: 401 without a session; the login key and the API server's bearer
 * tokens sign in, a token whose user may not list pods anywhere is refused with 403; the event stream
 * starts with a snapshot and carries a pod's status change as a delta; actions are refused unless
 * turned on, need `patch` rights, and pause a CloneSet.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { MutatingWebhookConfigurations, Pods, ValidatingWebhookConfigurations } from '../../api/resource-type.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { startControlPlane, type ControlPlane } from '../../apiserver/server.js';
import { createInProcessClient, type Client } from '../../client/index.js';
import { installKruise } from '../../install/install.js';
import { serveDashboard, type ServedDashboard } from '../../dashboard/index.js';
import { readEvents, serviceAccountToken, signIn } from './stream-kit.js';

let plane: ControlPlane;
let client: Client;
let readOnly: ServedDashboard;
let withActions: ServedDashboard;

before(async () => {
  plane = await startControlPlane({ dataDir: await mkdtemp(path.join(os.tmpdir(), 'kruise-dash-http-')), port: 0, inMemory: true });
  client = createInProcessClient(plane.handler, undefined, 'test');
  await installKruise(client);
  await client.delete(MutatingWebhookConfigurations, undefined, 'kruise-mutating-webhook-configuration');
  await client.delete(ValidatingWebhookConfigurations, undefined, 'kruise-validating-webhook-configuration');
  readOnly = await serveDashboard({ client, host: '127.0.0.1', port: 0, pushIntervalMs: 10 });
  withActions = await serveDashboard({ client, host: '127.0.0.1', port: 0, actions: true, pushIntervalMs: 10 });
});

after(async () => {
  await readOnly?.stop();
  await withActions?.stop();
  await plane?.stop();
});

test('nothing is readable without signing in', async () => {
  for (const p of ['', 'app.js', 'api/stream']) assert.equal((await fetch(`${readOnly.url}${p}`)).status, 401, p);
  assert.equal((await signIn(readOnly, 'wrong')).status, 401);
});

test('the login key and the API server\'s tokens sign in; a user who may not list pods anywhere gets 403', async () => {
  const byKey = await signIn(readOnly, readOnly.loginKey);
  assert.equal(byKey.status, 303);
  assert.equal((await fetch(readOnly.url, { headers: { cookie: byKey.cookie! } })).status, 200);
  assert.equal((await signIn(readOnly, plane.pki.adminToken)).status, 303);
  assert.equal((await signIn(readOnly, await serviceAccountToken(client, 'nobody'))).status, 403);
});

test('the stream starts with a snapshot and carries a pod status change as a delta', async () => {
  const { cookie } = await signIn(readOnly, plane.pki.adminToken);
  const pod = await client.create(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'watched', namespace: 'default' }, spec: { schedulerName: 'none', containers: [{ name: 'main', image: 'nginx' }] } } as KObject);
  let changed = false;
  const events = await readEvents(`${readOnly.url}api/stream`, cookie!, (e) => {
    if (e.event === 'snapshot' && !changed) {
      changed = true;
      assert.ok(e.data.rows.pods.some((p: { name: string; phase: string }) => p.name === 'watched' && p.phase === 'Pending'));
      void client.updateStatus(Pods, { ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } as KObject);
    }
    return e.event === 'delta' && (e.data.upserts.pods ?? []).some((p: { name: string; ready: boolean }) => p.name === 'watched' && p.ready);
  });
  assert.deepEqual(events.slice(0, 2).map((e) => e.event), ['hello', 'snapshot']);
  assert.equal(events[0]!.data.actions, false);
});

test('actions: off unless turned on, need patch rights, and pause a CloneSet', async () => {
  await client.create(CloneSets, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } },
  } as KObject);
  const act = (d: ServedDashboard, cookie: string) => fetch(`${d.url}api/actions`, {
    method: 'POST', headers: { cookie, 'content-type': 'application/json', 'x-dashboard-action': '1' },
    body: JSON.stringify({ kind: 'CloneSet', ns: 'default', name: 'web', action: 'pause' }),
  });
  const admin = (await signIn(readOnly, plane.pki.adminToken)).cookie!;
  assert.equal((await act(readOnly, admin)).status, 403);
  // a viewer may watch but not patch
  const viewerToken = await serviceAccountToken(client, 'viewer');
  await client.create({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false }, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'viewer-view' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: 'default' }],
  } as KObject);
  let viewer: { status: number; cookie?: string } = { status: 0 };
  for (let i = 0; i < 50 && viewer.status !== 303; i++) {
    viewer = await signIn(withActions, viewerToken); // the binding reaches the RBAC index shortly
    if (viewer.status !== 303) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(viewer.status, 303);
  const refused = await act(withActions, viewer.cookie!);
  assert.equal(refused.status, 403);
  assert.equal(((await refused.json()) as { message: string }).message, 'system:serviceaccount:default:viewer may not patch clonesets default/web');
  const admin2 = (await signIn(withActions, plane.pki.adminToken)).cookie!;
  const done = await act(withActions, admin2);
  assert.equal(done.status, 200);
  const cs = await client.get<KObject & { spec: { updateStrategy?: { rollingUpdate?: { paused?: boolean } } } }>(CloneSets, 'default', 'web');
  assert.equal(cs.spec.updateStrategy?.rollingUpdate?.paused, true);
});
