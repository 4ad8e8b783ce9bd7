import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '../../client/client.js';
import { errors } from '../../machinery/errors.js';
import { applyRevision, dataHash, equalRevision, findEqualRevisions, newRevision, nextRevisionNumber, planRevisions, revisionData, revisionsToTrim, syncRevisions, templateOfRevision, type RevisionedWorkload } from './index.js';
import type { ControllerRevision } from '../../api/core/index.js';

function cloneSet(image: string, status: RevisionedWorkload['status'] = {}): RevisionedWorkload {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet',
    metadata: { name: 'demo', namespace: 'ns', uid: 'u1', annotations: { a: 'b' } },
    spec: { template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'web', image }] } } },
    status,
  };
}
const rev = (w: RevisionedWorkload, n: number, collision = 0) => newRevision(w, revisionData(w), n, collision);
const named = (name: string, n: number, image = name): ControllerRevision => ({ ...rev(cloneSet(image), n), metadata: { name } });

describe('newRevision', () => {
  const cs = cloneSet('nginx:1.25');
  test('name, hash label, annotations, owner and data follow upstream (pinned golden values)', () => {
    const r = rev(cs, 3);
    assert.equal(r.metadata.name, 'demo-86ddb47495');
    assert.deepEqual(r.metadata.labels, { app: 'demo', 'controller.kubernetes.io/hash': '86ddb47495' });
    assert.deepEqual(r.metadata.annotations, { a: 'b' });
    assert.equal(r.metadata.namespace, 'ns');
    assert.deepEqual(r.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'demo', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
    assert.equal(r.revision, 3);
    assert.deepEqual(r.data, { spec: { template: { ...cs.spec!.template, $patch: 'replace' } } });
  });
  test('the collision count is hashed in decimal, as k8s HashControllerRevision, and only when given', () => {
    const d = revisionData(cs);
    assert.equal(dataHash(d), '76c789b789');
    assert.equal(dataHash(d, 1), '86ddb47494');
    assert.equal(dataHash(d, 31), '697cd46fc'); // "31"
    assert.equal(dataHash(d, 32), '697cd46fd'); // "32"
  });
  test('template-hash mode labels controller-revision-hash (ADS)', () => {
    const r = newRevision(cs, revisionData(cs), 1, 0, { mode: 'template-hash' });
    assert.equal(r.metadata.name, 'demo-74958bb748');
    assert.equal(r.metadata.labels!['controller-revision-hash'], '74958bb748');
    assert.equal(r.metadata.labels!['controller.kubernetes.io/hash'], undefined);
  });
  test('key order of the template does not change the hash', () => {
    const reordered = cloneSet('nginx:1.25');
    reordered.spec!.template = { spec: { containers: [{ image: 'nginx:1.25', name: 'web' }] }, metadata: { labels: { app: 'demo' } } };
    assert.equal(rev(reordered, 1).metadata.name, rev(cs, 1).metadata.name);
  });
  test('applyRevision and templateOfRevision give back the recorded template', () => {
    const old = rev(cloneSet('nginx:1.24'), 1);
    const applied = applyRevision(cs, old);
    assert.deepEqual(applied.spec!.template, templateOfRevision(old)!);
    assert.equal((applied.spec!.template as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image, 'nginx:1.24');
    assert.equal((cs.spec!.template as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image, 'nginx:1.25');
  });
});

describe('equality', () => {
  test('Go-style empties (creationTimestamp null, resources {}) are equal to ours', () => {
    const ours = rev(cloneSet('x'), 1);
    const upstream = structuredClone(ours);
    const t = (upstream.data as { spec: { template: { metadata: Record<string, unknown>; spec: { containers: Record<string, unknown>[] } } } }).spec.template;
    t.metadata.creationTimestamp = null;
    t.spec.containers[0]!.resources = {};
    assert.ok(equalRevision(ours, upstream));
    assert.ok(!equalRevision(ours, rev(cloneSet('y'), 1)));
    assert.deepEqual(findEqualRevisions([rev(cloneSet('y'), 1), upstream], ours), [upstream]);
  });
  test('nextRevisionNumber is one past the highest', () => {
    assert.equal(nextRevisionNumber([]), 1);
    assert.equal(nextRevisionNumber([named('a', 4), named('b', 2)]), 5);
  });
});

describe('planRevisions', () => {
  test('empty history: create revision 1, current = update', () => {
    const plan = planRevisions(cloneSet('v1'), []);
    assert.equal(plan.toCreate?.revision, 1);
    assert.equal(plan.updateRevision, plan.toCreate);
    assert.equal(plan.currentRevision, plan.toCreate);
    assert.equal(plan.collisionCount, 0);
  });
  test('equal to the newest: reuse it, nothing to write', () => {
    const r1 = rev(cloneSet('v1'), 1);
    const r2 = rev(cloneSet('v2'), 2);
    const plan = planRevisions(cloneSet('v2', { currentRevision: r1.metadata.name }), [r2, r1]);
    assert.equal(plan.updateRevision, r2);
    assert.equal(plan.currentRevision, r1);
    assert.equal(plan.toCreate, undefined);
    assert.equal(plan.toBump, undefined);
  });
  test('equal to an older one: bump its revision number (rollback keeps the name)', () => {
    const r1 = rev(cloneSet('v1'), 1);
    const r2 = rev(cloneSet('v2'), 2);
    const plan = planRevisions(cloneSet('v1', { currentRevision: r2.metadata.name }), [r1, r2]);
    assert.equal(plan.toBump?.metadata.name, r1.metadata.name);
    assert.equal(plan.toBump?.revision, 3);
    assert.equal(plan.updateRevision, plan.toBump);
    assert.equal(plan.currentRevision, r2);
  });
  test('new template: create with the next number; current falls back to update when unknown', () => {
    const plan = planRevisions(cloneSet('v3', { currentRevision: 'gone' }), [rev(cloneSet('v1'), 1), rev(cloneSet('v2'), 2)]);
    assert.equal(plan.toCreate?.revision, 3);
    assert.equal(plan.currentRevision, plan.updateRevision);
  });
  test('a name taken by other content bumps the collision count', () => {
    const want = rev(cloneSet('v2'), 2, 0);
    const squatter: ControllerRevision = { ...rev(cloneSet('other'), 1), metadata: { ...want.metadata } };
    const plan = planRevisions(cloneSet('v2', { collisionCount: 0 }), [squatter]);
    assert.equal(plan.collisionCount, 1);
    assert.equal(plan.toCreate?.metadata.name, rev(cloneSet('v2'), 2, 1).metadata.name);
    assert.notEqual(plan.toCreate?.metadata.name, squatter.metadata.name);
  });
});

describe('revisionsToTrim', () => {
  const revs = [named('s-e', 5), named('s-a', 1), named('s-c', 3), named('s-b', 2), named('s-d', 4)];
  test('keeps current, update and pod revisions; deletes the oldest beyond the limit', () => {
    const out = revisionsToTrim(revs, ['s-c'], revs[0], revs[0], 1).map((r) => r.metadata.name);
    assert.deepEqual(out, ['s-a', 's-b']);
  });
  test('bare hashes on pods (ADS, CloneSetShortHash) keep their revision', () => {
    assert.deepEqual(revisionsToTrim(revs, ['a', undefined], revs[0], revs[2], 0).map((r) => r.metadata.name), ['s-b', 's-d']);
  });
  test('nothing to trim within the limit (default 10)', () => {
    assert.deepEqual(revisionsToTrim(revs, [], undefined, undefined), []);
  });
});

/** Just enough of a Client to hold ControllerRevisions by name. */
function fakeClient(initial: ControllerRevision[]) {
  const store = new Map(initial.map((r) => [r.metadata.name!, r]));
  const calls: string[] = [];
  const client = {
    async create(_t: unknown, obj: ControllerRevision) {
      calls.push(`create ${obj.metadata.name}`);
      if (store.has(obj.metadata.name!)) throw errors.alreadyExists('controllerrevisions', obj.metadata.name!, 'apps');
      store.set(obj.metadata.name!, obj);
      return obj;
    },
    async get(_t: unknown, _ns: string, name: string) { return store.get(name); },
    async update(_t: unknown, obj: ControllerRevision) { calls.push(`update ${obj.metadata.name} ${obj.revision}`); store.set(obj.metadata.name!, obj); return obj; },
  };
  return { client: client as unknown as Client, calls };
}

describe('syncRevisions', () => {
  test('AlreadyExists with other content (not in cache) steps the collision count', async () => {
    const hidden: ControllerRevision = { ...rev(cloneSet('other'), 1), metadata: { ...rev(cloneSet('v1'), 1).metadata } };
    const { client, calls } = fakeClient([hidden]);
    const out = await syncRevisions(client, cloneSet('v1'), []);
    assert.equal(out.collisionCount, 1);
    assert.equal(out.updateRevision.metadata.name, rev(cloneSet('v1'), 1, 1).metadata.name);
    assert.deepEqual(calls, [`create ${hidden.metadata.name}`, `create ${out.updateRevision.metadata.name}`]);
  });
  test('AlreadyExists with equal content reuses the existing revision', async () => {
    const existing = rev(cloneSet('v1'), 1);
    const { client } = fakeClient([existing]);
    const out = await syncRevisions(client, cloneSet('v1'), []);
    assert.equal(out.updateRevision, existing);
    assert.equal(out.collisionCount, 0);
  });
  test('rollback updates the old revision number', async () => {
    const r1 = rev(cloneSet('v1'), 1);
    const r2 = rev(cloneSet('v2'), 2);
    const { client, calls } = fakeClient([r1, r2]);
    const out = await syncRevisions(client, cloneSet('v1', { currentRevision: r2.metadata.name }), [r1, r2]);
    assert.deepEqual(calls, [`update ${r1.metadata.name} 3`]);
    assert.equal(out.currentRevision, r2);
    assert.equal(out.revisions.length, 2);
  });
});
