/**
 * The dashboard's rows for the kinds beyond rolling workloads and its per-user filter
 * (docs/design/dashboard.md §10-§11), over HTTP against an in-process API server: statuses written
 * through the status subresource come out as UnitedDeployment subsets, WorkloadSpread subsets,
 * cron job schedule/last run/active, ImagePullJob counts and PUB budgets; an event written through
 * events.k8s.io/v1 and one through core/v1 each appear once; a ServiceAccount bound to a Role in one
 * namespace sees that namespace's rows only and gets 403 asking for another.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import { CronJobs, Events, MutatingWebhookConfigurations, Namespaces, Pods, ValidatingWebhookConfigurations } from '../../api/resource-type.js';
import { AdvancedCronJobs, CloneSets, ImagePullJobs, PodUnavailableBudgets, UnitedDeployments, WorkloadSpreads } from '../../api/kruise/resource-types.js';
import { startControlPlane, type ControlPlane } from '../../apiserver/server.js';
import { createInProcessClient, type Client } from '../../client/index.js';
import { installKruise } from '../../install/install.js';
import { serveDashboard, type ServedDashboard } from '../../dashboard/index.js';
import { EventsV1 } from '../../dashboard/watches.js';
import { serviceAccountToken, signIn, snapshotOf } from './stream-kit.js';

let plane: ControlPlane;
let client: Client;
let dashboard: ServedDashboard;
let admin: string;

const rbac = (resource: string, kind: string): ResourceType => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource, kind, namespaced: resource.startsWith('role') });
const meta = (name: string, namespace = 'default') => ({ name, namespace });
const pod = (name: string, namespace: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(name, namespace), spec: { schedulerName: 'none', containers: [{ name: 'main', image: 'nginx' }] } } as KObject);

/** Creates `obj`, then writes `status` through the status subresource, as its controller would. */
async function withStatus(type: ResourceType, obj: Record<string, unknown>, status: Record<string, unknown>): Promise<void> {
  const created = await client.create(type, obj as KObject);
  await client.updateStatus(type, { ...created, status } as KObject);
}

before(async () => {
  plane = await startControlPlane({ dataDir: await mkdtemp(path.join(os.tmpdir(), 'kruise-dash-rows-')), port: 0, inMemory: true });
  client = createInProcessClient(plane.handler, undefined, 'test');
  await installKruise(client);
  await client.delete(MutatingWebhookConfigurations, undefined, 'kruise-mutating-webhook-configuration');
  await client.delete(ValidatingWebhookConfigurations, undefined, 'kruise-validating-webhook-configuration');
  // Users review their own access through a client acting as them (the HTTP test covers the SubjectAccessReview way).
  dashboard = await serveDashboard({ client, host: '127.0.0.1', port: 0, pushIntervalMs: 10, clientAs: (u) => createInProcessClient(plane.handler, { username: u.username, uid: u.uid, groups: u.groups, extra: u.extra }, 'test') });
  admin = (await signIn(dashboard, plane.pki.adminToken)).cookie!;
});

after(async () => {
  await dashboard?.stop();
  await plane?.stop();
});

/** Rows of `family` once `ready` holds for them (the watches catch up shortly after a write). */
async function rowsWhen(family: string, ready: (rows: any[]) => boolean, cookie = admin, query = ''): Promise<any[]> {
  for (let i = 0; ; i++) {
    const rows = (await snapshotOf(`${dashboard.url}api/stream${query}`, cookie)).rows[family] ?? [];
    if (ready(rows) || i >= 50) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('Kruise and batch kinds show their status', async () => {
  const template = { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  await withStatus(UnitedDeployments, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: meta('demo'),
    spec: { replicas: 5, selector: { matchLabels: { app: 'demo' } }, template: { cloneSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template } } },
      topology: { subsets: [{ name: 'a' }, { name: 'b' }] } },
  }, { replicas: 5, readyReplicas: 4, updatedReplicas: 5, currentRevision: 'demo-1', subsetStatuses: [{ name: 'a', replicas: 3 }, { name: 'b', replicas: 2 }] });
  await withStatus(WorkloadSpreads, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: meta('spread'),
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [{ name: 'za', maxReplicas: 2 }, { name: 'zb' }] },
  }, { observedGeneration: 1, subsetStatuses: [
    { name: 'za', replicas: 1, missingReplicas: 1, creatingPods: { 'web-1': '2026-01-01T00:00:00Z' } },
    { name: 'zb', replicas: 3, missingReplicas: -1, deletingPods: { 'web-2': '2026-01-01T00:00:00Z', 'web-3': '2026-01-01T00:00:00Z' } },
  ] });
  const jobTemplate = { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
  await withStatus(AdvancedCronJobs, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', metadata: meta('nightly'), spec: { schedule: '0 3 * * *', template: { jobTemplate } } },
    { type: 'Job', lastScheduleTime: '2026-01-01T03:00:00Z', active: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'nightly-1', namespace: 'default' }] });
  await withStatus(CronJobs, { apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta('hourly'), spec: { schedule: '@hourly', jobTemplate } }, { lastScheduleTime: '2026-01-01T04:00:00Z' });
  await withStatus(ImagePullJobs, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', metadata: meta('pull'), spec: { image: 'nginx:1.25', parallelism: 2, completionPolicy: { type: 'Always' } } },
    { desired: 4, succeeded: 2, failed: 1, active: 1 });
  await withStatus(PodUnavailableBudgets, { apiVersion: 'policy.kruise.io/v1beta1', kind: 'PodUnavailableBudget', metadata: meta('budget'), spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 } },
    { unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 });

  // Every kind's watch catches up on its own: wait until each row carries its status.
  const statusSeen: Record<string, (o: any) => boolean> = {
    UnitedDeployment: (o) => o.subsets.length === 2 && o.subsets[0][1] !== '0 replicas', WorkloadSpread: (o) => o.subsets.length === 2,
    AdvancedCronJob: (o) => o.fields[1][1] !== 'never', CronJob: (o) => o.fields[1][1] !== 'never', ImagePullJob: (o) => o.fields[0][1] !== '0', PodUnavailableBudget: (o) => o.fields[1][1] !== '0/0',
  };
  const rows = await rowsWhen('others', (r) => r.length === 6 && r.every((o) => statusSeen[o.kind]?.(o)));
  const byKind = Object.fromEntries(rows.map((r) => [r.kind, { fields: Object.fromEntries(r.fields), subsets: Object.fromEntries(r.subsets) }]));
  assert.deepEqual(byKind.UnitedDeployment, { fields: { replicas: '4/5 ready', updated: '5' }, subsets: { a: '3 replicas', b: '2 replicas' } });
  assert.deepEqual(byKind.WorkloadSpread.subsets, { za: 'missing 1, creating 1, deleting 0', zb: 'missing -1, creating 0, deleting 2' });
  assert.deepEqual(byKind.AdvancedCronJob.fields, { schedule: '0 3 * * *', 'last schedule': '2026-01-01T03:00:00Z', active: '1' });
  assert.deepEqual(byKind.CronJob.fields, { schedule: '@hourly', 'last schedule': '2026-01-01T04:00:00Z', active: '0' });
  assert.deepEqual(byKind.ImagePullJob.fields, { desired: '4', succeeded: '2', failed: '1', active: '1' });
  assert.deepEqual(byKind.PodUnavailableBudget.fields, { 'unavailable allowed': '1', available: '3/2' });
});

test('an event written through either events API appears once', async () => {
  const involved = { kind: 'Pod', name: 'p', namespace: 'default' };
  const core = await client.create(Events, { apiVersion: 'v1', kind: 'Event', metadata: meta('core-event'), involvedObject: involved, reason: 'CoreReason', message: 'from core/v1', type: 'Normal', count: 2, lastTimestamp: '2026-01-01T00:00:00Z' } as KObject);
  const v1 = await client.create(EventsV1, {
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: meta('v1-event'), regarding: involved, reason: 'V1Reason', note: 'from events.k8s.io/v1', type: 'Warning',
    eventTime: '2026-01-01T00:00:01.000000Z', reportingController: 'test', reportingInstance: 'test-1', action: 'Tested',
  } as KObject);
  const rows = await rowsWhen('events', (r) => r.some((e) => e.uid === v1.metadata.uid) && r.some((e) => e.uid === core.metadata.uid));
  const ours = rows.filter((e) => e.uid === v1.metadata.uid || e.uid === core.metadata.uid).map((e) => [e.reason, e.object, e.message, e.count, e.type]).sort();
  assert.deepEqual(ours, [['CoreReason', 'Pod/p', 'from core/v1', 2, 'Normal'], ['V1Reason', 'Pod/p', 'from events.k8s.io/v1', 1, 'Warning']]);
});

test('a user bound to a Role in one namespace sees that namespace only, 403 for another', async () => {
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } as KObject);
  await client.create(Pods, pod('mine', 'team-a'));
  await client.create(Pods, pod('theirs', 'default'));
  const cloneSet = (namespace: string) => ({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: meta('web', namespace),
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } },
  } as KObject);
  await client.create(CloneSets, cloneSet('team-a'));
  await client.create(CloneSets, cloneSet('default'));
  await client.create(rbac('roles', 'Role'), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta('reader', 'team-a'), rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }] } as KObject);
  await client.create(rbac('rolebindings', 'RoleBinding'), {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: meta('reader', 'team-a'),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'dev', namespace: 'team-a' }],
  } as KObject);
  const token = await serviceAccountToken(client, 'dev', 'team-a');
  let login = await signIn(dashboard, token);
  for (let i = 0; i < 50 && login.status !== 303; i++) {
    await new Promise((r) => setTimeout(r, 100)); // the binding reaches the RBAC index shortly
    login = await signIn(dashboard, token);
  }
  assert.equal(login.status, 303, 'a namespaced reader is signed in, not refused');
  const pods = await rowsWhen('pods', (r) => r.length > 0, login.cookie);
  assert.deepEqual(pods.map((p) => `${p.ns}/${p.name}`), ['team-a/mine']);
  const snapshot = await snapshotOf(`${dashboard.url}api/stream`, login.cookie!);
  assert.deepEqual(snapshot.rows.workloads!.map((w) => `${w.kind}/${w.ns}/${w.name}`), ['CloneSet/team-a/web']);
  assert.deepEqual(snapshot.rows.namespaces!.map((n) => n.name), ['team-a']);
  assert.deepEqual(snapshot.rows.nodes, [], 'nodes are cluster-scoped: not listable with a Role');
  assert.ok((await snapshotOf(`${dashboard.url}api/stream`, admin)).rows.pods!.some((p) => p.name === 'theirs'), 'the admin still sees everything');

  const other = await fetch(`${dashboard.url}api/stream?namespace=default`, { headers: { cookie: login.cookie! } });
  assert.equal(other.status, 403);
  assert.equal(((await other.json()) as { message: string }).message, 'system:serviceaccount:team-a:dev may not list pods in namespace default');
  const own = await snapshotOf(`${dashboard.url}api/stream?namespace=team-a`, login.cookie!);
  assert.deepEqual(own.rows.pods!.map((p) => p.name), ['mine']);
});
