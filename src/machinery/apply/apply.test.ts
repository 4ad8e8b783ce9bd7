import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../errors.js';
import { serverSideApply, type ApplyOptions } from './apply.js';
import { recordUpdate } from './managed-fields.js';
import { defaultHints } from './type-hints.js';

const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T10:05:00Z';
const T2 = '2024-05-01T10:10:00Z';
const opts = (manager: string, now = T0, extra: Partial<ApplyOptions> = {}): ApplyOptions =>
  ({ manager, force: false, apiVersion: 'apps/v1', hints: defaultHints, now, ...extra });

type Spec = { replicas?: number; paused?: boolean; template: { spec: { containers: { name: string; image?: string }[] } } };
const spec = (o: KObject): Spec => o.spec as Spec;

function config(s: Record<string, unknown>, labels?: Record<string, string>): KObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', ...(labels ? { labels } : {}) }, spec: s };
}
const containers = (...cs: { name: string; image?: string }[]) => ({ template: { spec: { containers: cs } } });
const entry = (o: KObject, manager: string) => o.metadata.managedFields?.find((e) => e.manager === manager);
const managers = (o: KObject) => o.metadata.managedFields?.map((e) => `${e.manager}/${e.operation}`) ?? [];

/** What the store would add on create; SSA must leave these untracked. */
function stored(o: KObject): KObject {
  return { ...o, metadata: { ...o.metadata, uid: 'uid-1', resourceVersion: '1', creationTimestamp: T0, generation: 1 } };
}

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  assert.fail('expected a conflict');
}

describe('serverSideApply', () => {
  test('apply to a missing object creates it, owned by the applier (operation Apply)', () => {
    const obj = serverSideApply(undefined, config({ replicas: 2, ...containers({ name: 'a', image: 'nginx' }) }, { app: 'web' }), opts('kubectl'));
    assert.equal(spec(obj).replicas, 2);
    assert.deepEqual(obj.metadata.labels, { app: 'web' });
    assert.deepEqual(obj.metadata.managedFields, [{
      manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      },
    }]);
  });

  test('re-applying without a field removes it; fields nobody applied stay', () => {
    let obj = stored(serverSideApply(undefined, config({ replicas: 2, paused: true, ...containers({ name: 'a' }) }, { app: 'web', tier: 'x' }), opts('kubectl')));
    obj = { ...obj, status: { replicas: 2 } };
    obj = serverSideApply(obj, config({ replicas: 2, ...containers({ name: 'a' }) }, { app: 'web' }), opts('kubectl', T1));
    assert.equal(spec(obj).paused, undefined);
    assert.deepEqual(obj.metadata.labels, { app: 'web' });
    assert.deepEqual(obj.status, { replicas: 2 });
    assert.equal(obj.metadata.uid, 'uid-1');
    assert.equal(entry(obj, 'kubectl')?.time, T1);
    // Dropping every label removes the map.
    obj = serverSideApply(obj, config({ replicas: 2, ...containers({ name: 'a' }) }), opts('kubectl', T1));
    assert.equal(obj.metadata.labels, undefined);
  });

  test('two managers applying the same value share the field; it stays until both drop it', () => {
    let obj = stored(serverSideApply(undefined, config({ replicas: 3 }), opts('a')));
    obj = serverSideApply(obj, config({ replicas: 3 }), opts('b', T1));
    assert.deepEqual(entry(obj, 'a')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(entry(obj, 'b')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    obj = serverSideApply(obj, config({ paused: false }), opts('a', T2));
    assert.equal(spec(obj).replicas, 3);
    obj = serverSideApply(obj, config({ paused: false }), opts('b', T2));
    assert.equal(spec(obj).replicas, undefined);
  });

  test('a changed value owned by another manager is a 409 with upstream message and causes', () => {
    const created = stored(config({ replicas: 1, ...containers({ name: 'a', image: 'v1' }) }));
    created.metadata.managedFields = recordUpdate(undefined, created, { manager: 'kubectl-client-side-apply', apiVersion: 'apps/v1', hints: defaultHints, now: T0 });
    const err = conflictOf(() => serverSideApply(created, config({ replicas: 5 }), opts('kubectl', T1)));
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    assert.deepEqual(err.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }] });

    const two = conflictOf(() => serverSideApply(created, config({ replicas: 5, ...containers({ name: 'a', image: 'v2' }) }), opts('kubectl', T1)));
    assert.equal(two.message, 'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n'
      + '- .spec.replicas\n- .spec.template.spec.containers[name="a"].image');
    assert.deepEqual(two.details?.causes?.map((c) => c.field), ['.spec.replicas', '.spec.template.spec.containers[name="a"].image']);
  });

  test('force takes ownership from the other manager', () => {
    const created = stored(config({ replicas: 1, paused: false }));
    created.metadata.managedFields = recordUpdate(undefined, created, { manager: 'creator', apiVersion: 'apps/v1', hints: defaultHints, now: T0 });
    const obj = serverSideApply(created, config({ replicas: 5 }), opts('kubectl', T1, { force: true }));
    assert.equal(spec(obj).replicas, 5);
    assert.deepEqual(entry(obj, 'kubectl')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(entry(obj, 'creator')?.fieldsV1, { 'f:spec': { 'f:paused': {} } });
    assert.deepEqual(managers(obj), ['kubectl/Apply', 'creator/Update']);
  });

  test('map lists merge by key: each applier keeps its own items', () => {
    let obj = stored(serverSideApply(undefined, config(containers({ name: 'a', image: 'a:1' })), opts('A')));
    obj = serverSideApply(obj, config(containers({ name: 'b', image: 'b:1' })), opts('B', T1));
    assert.deepEqual(spec(obj).template.spec.containers, [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]);
    obj = serverSideApply(obj, config({ replicas: 1 }), opts('A', T2));
    assert.deepEqual(spec(obj).template.spec.containers, [{ name: 'b', image: 'b:1' }]);
    assert.equal(spec(obj).replicas, 1);
  });

  test('an Update after an Apply moves ownership; the next apply of the old value conflicts', () => {
    let obj = stored(serverSideApply(undefined, config({ replicas: 3 }), opts('kubectl')));
    const scaled = structuredClone(obj);
    spec(scaled).replicas = 7;
    scaled.metadata.managedFields = recordUpdate(obj, scaled, { manager: 'kubectl-scale', apiVersion: 'apps/v1', hints: defaultHints, now: T1, subresource: 'scale' });
    obj = scaled;
    assert.deepEqual(managers(obj), ['kubectl-scale/Update']);
    const err = conflictOf(() => serverSideApply(obj, config({ replicas: 3 }), opts('kubectl', T2)));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl-scale" with subresource "scale" using apps/v1: .spec.replicas');
    // Applying without replicas keeps the scaled value.
    obj = serverSideApply(obj, config({ paused: false }), opts('kubectl', T2));
    assert.equal(spec(obj).replicas, 7);
  });

  test('the first apply to an untracked object conflicts with before-first-apply', () => {
    const untracked = stored(config({ replicas: 1 }));
    const err = conflictOf(() => serverSideApply(untracked, config({ replicas: 2 }), opts('kubectl')));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
    const shared = serverSideApply(untracked, config({ replicas: 1 }), opts('kubectl'));
    assert.deepEqual(managers(shared), ['kubectl/Apply', 'before-first-apply/Update']);
  });

  test('sets union in upstream order, null unsets, atomic lists replace', () => {
    const live = stored(config({ replicas: 1, paused: true }));
    live.metadata.finalizers = ['a', 'b', 'c'];
    (live.spec as Record<string, unknown>).args = ['x'];
    live.metadata.managedFields = recordUpdate(undefined, live, { manager: 'creator', apiVersion: 'apps/v1', hints: defaultHints, now: T0 });
    const applied = config({ paused: null, args: ['y', 'z'] });
    applied.metadata.finalizers = ['c', 'a', 'd'];
    const obj = serverSideApply(live, applied, opts('kubectl', T1, { force: true }));
    assert.deepEqual(obj.metadata.finalizers, ['b', 'c', 'a', 'd']);
    assert.equal(spec(obj).paused, undefined);
    assert.deepEqual((obj.spec as Record<string, unknown>).args, ['y', 'z']);
  });

  test('a no-op re-apply keeps the entry time and leaves inputs untouched', () => {
    const obj = stored(serverSideApply(undefined, config({ replicas: 3 }), opts('kubectl')));
    const before = structuredClone(obj);
    const applied = config({ replicas: 3 });
    const again = serverSideApply(obj, applied, opts('kubectl', T2));
    assert.deepEqual(again, before);
    assert.deepEqual(obj, before);
    assert.deepEqual(applied, config({ replicas: 3 }));
  });

  test('rejects managedFields and a wrong apiVersion in the applied object', () => {
    const withFields = config({ replicas: 1 });
    withFields.metadata.managedFields = [];
    assert.throws(() => serverSideApply(undefined, withFields, opts('k')), { code: 400, message: 'metadata.managedFields must be nil' });
    assert.throws(() => serverSideApply(undefined, { ...config({}), apiVersion: 'apps/v1beta1' }, opts('k')), {
      code: 400, message: 'Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1',
    });
  });
});
