import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addNotReadyKey, afterInPlaceDone, beforeInPlaceUpdate, canCancelPreparingDelete, canLeavePreparingDelete, deleteDecision, formatReadinessMessages, inPlaceStartState, isAllHooked, isHooked, isPodAvailableByLifecycle, lifecycleStatePatch, nextStateForCreate, preparingNormalToNormal, readinessForState, refreshLifecycleState, removeNotReadyKey, shouldEnterPreparingDelete, updatedToNormal } from './index.js';
import type { PodCondition, Pod } from '../../api/core/index.js';
import type { Lifecycle } from './hooks.js';

const STATE = 'lifecycle.apps.kruise.io/state';
const hook = { labelsHandler: { 'example.io/hold': 'true' }, finalizersHandler: ['example.io/gate'] };
function pod(state?: string, opts: { labels?: Record<string, string>; finalizers?: string[]; nodeName?: string } = {}): Pod {
  return {
    metadata: { name: 'p', labels: { ...opts.labels, ...(state ? { [STATE]: state } : {}) }, finalizers: opts.finalizers },
    spec: { containers: [], ...(opts.nodeName ? { nodeName: opts.nodeName } : {}) },
  };
}
const hooked = (state?: string) => pod(state, { labels: { 'example.io/hold': 'true' } });
const allHooked = (state?: string) => pod(state, { labels: { 'example.io/hold': 'true' }, finalizers: ['example.io/gate'] });

describe('hooks', () => {
  test('hooked = any label/finalizer, all-hooked = all of them, no hook = neither', () => {
    assert.ok(isHooked(hooked(), hook));
    assert.ok(isHooked(pod(undefined, { finalizers: ['example.io/gate'] }), hook));
    assert.ok(!isHooked(pod(undefined, { labels: { 'example.io/hold': 'false' } }), hook));
    assert.ok(!isAllHooked(hooked(), hook));
    assert.ok(isAllHooked(allHooked(), hook));
    assert.ok(!isHooked(allHooked(), undefined) && !isAllHooked(allHooked(), undefined));
  });
  test('availability: missing label or Normal only', () => {
    assert.ok(isPodAvailableByLifecycle(pod()));
    assert.ok(isPodAvailableByLifecycle(pod('Normal')));
    for (const s of ['PreparingNormal', 'PreparingUpdate', 'Updating', 'Updated', 'PreparingDelete']) assert.ok(!isPodAvailableByLifecycle(pod(s)), s);
  });
  test('state patch carries the label and an RFC3339 timestamp; with a handler, its labels and finalizers', () => {
    const now = new Date('2024-05-06T07:08:09.123Z');
    assert.deepEqual(lifecycleStatePatch('PreparingDelete', now), {
      metadata: { labels: { [STATE]: 'PreparingDelete' }, annotations: { 'lifecycle.apps.kruise.io/timestamp': '2024-05-06T07:08:09Z' } },
    });
    assert.deepEqual(lifecycleStatePatch('PreparingUpdate', now, hook).metadata, {
      labels: { 'example.io/hold': 'true', [STATE]: 'PreparingUpdate' },
      annotations: { 'lifecycle.apps.kruise.io/timestamp': '2024-05-06T07:08:09Z' },
      finalizers: ['example.io/gate'],
    });
  });
});

describe('transition table', () => {
  const preNormal: Lifecycle = { preNormal: hook };
  test('create: CloneSet PreparingNormal; ASTS Normal unless preNormal not all-hooked; ADS no label', () => {
    assert.equal(nextStateForCreate('CloneSet', undefined, pod()), 'PreparingNormal');
    assert.equal(nextStateForCreate('StatefulSet', undefined, pod()), 'Normal');
    assert.equal(nextStateForCreate('StatefulSet', preNormal, hooked()), 'PreparingNormal');
    assert.equal(nextStateForCreate('StatefulSet', preNormal, allHooked()), 'Normal');
    assert.equal(nextStateForCreate('DaemonSet', preNormal, pod()), undefined);
  });
  test('PreparingNormal → Normal: CloneSet needs nodeName, or all-hooked with preNormal; ASTS preNormal absent or all-hooked', () => {
    assert.ok(!preparingNormalToNormal(pod('PreparingNormal'), undefined, 'CloneSet'));
    assert.ok(preparingNormalToNormal(pod('PreparingNormal', { nodeName: 'n1' }), undefined, 'CloneSet'));
    assert.ok(!preparingNormalToNormal(pod('PreparingNormal', { nodeName: 'n1' }), preNormal, 'CloneSet'));
    assert.ok(preparingNormalToNormal(allHooked('PreparingNormal'), preNormal, 'CloneSet'));
    assert.ok(preparingNormalToNormal(pod('PreparingNormal'), undefined, 'StatefulSet'));
    assert.ok(!preparingNormalToNormal(hooked('PreparingNormal'), preNormal, 'StatefulSet'));
    assert.ok(!preparingNormalToNormal(pod('PreparingNormal'), undefined, 'DaemonSet'));
  });
  test('before delete / PreparingDelete → deleted (all kinds)', () => {
    const lc: Lifecycle = { preDelete: hook };
    assert.ok(shouldEnterPreparingDelete(hooked('Normal'), lc));
    assert.ok(!shouldEnterPreparingDelete(hooked('PreparingDelete'), lc));
    assert.equal(deleteDecision(hooked('Normal'), lc), 'enterPreparingDelete');
    assert.equal(deleteDecision(pod('Normal'), lc), 'delete');
    assert.equal(deleteDecision(hooked('PreparingDelete'), lc), 'wait');
    assert.ok(canLeavePreparingDelete(pod('PreparingDelete'), lc));
    assert.equal(deleteDecision(pod('PreparingDelete'), lc), 'delete');
  });
  test('cancel PreparingDelete: CloneSet only, not specified-delete, no markPodNotReady', () => {
    assert.ok(canCancelPreparingDelete(pod('PreparingDelete'), { preDelete: hook }, 'CloneSet'));
    assert.ok(!canCancelPreparingDelete(pod('PreparingDelete', { labels: { 'apps.kruise.io/specified-delete': 'true' } }), undefined, 'CloneSet'));
    assert.ok(!canCancelPreparingDelete(pod('PreparingDelete'), { inPlaceUpdate: { markPodNotReady: true } }, 'CloneSet'));
    assert.ok(!canCancelPreparingDelete(pod('PreparingDelete'), undefined, 'StatefulSet'));
    assert.ok(!canCancelPreparingDelete(pod('Normal'), undefined, 'CloneSet'));
  });
  test('before in-place: PreparingUpdate while hooked, wait, then start; Updated re-enters; PreparingDelete refused', () => {
    const lc: Lifecycle = { inPlaceUpdate: hook };
    for (const kind of ['CloneSet', 'StatefulSet'] as const) {
      assert.equal(beforeInPlaceUpdate(hooked('Normal'), lc, kind), 'enterPreparingUpdate');
      assert.equal(beforeInPlaceUpdate(hooked(), lc, kind), 'enterPreparingUpdate');
      assert.equal(beforeInPlaceUpdate(pod('Normal'), lc, kind), 'start');
      assert.equal(beforeInPlaceUpdate(pod('PreparingNormal'), lc, kind), 'start');
      assert.equal(beforeInPlaceUpdate(hooked('PreparingUpdate'), lc, kind), 'wait');
      assert.equal(beforeInPlaceUpdate(pod('PreparingUpdate'), lc, kind), 'start');
      assert.equal(beforeInPlaceUpdate(pod('Updating'), lc, kind), 'start');
      assert.equal(beforeInPlaceUpdate(allHooked('Updated'), lc, kind), 'reenterPreparingUpdate');
      assert.equal(beforeInPlaceUpdate(pod('PreparingDelete'), lc, kind), 'refuse');
    }
    assert.equal(beforeInPlaceUpdate(hooked('Normal'), lc, 'DaemonSet'), 'start');
  });
  test('in-place start: Updating; ASTS only with a state label; ADS never', () => {
    assert.equal(inPlaceStartState(pod(), 'CloneSet'), 'Updating');
    assert.equal(inPlaceStartState(pod(), 'StatefulSet'), undefined);
    assert.equal(inPlaceStartState(pod('Normal'), 'StatefulSet'), 'Updating');
    assert.equal(inPlaceStartState(pod('Normal'), 'DaemonSet'), undefined);
  });
  test('after in-place done (and rollback of PreparingUpdate): Updated when the hook is not all back, else Normal', () => {
    assert.equal(afterInPlaceDone(pod('Updating'), { inPlaceUpdate: hook }), 'Updated');
    assert.equal(afterInPlaceDone(allHooked('Updating'), { inPlaceUpdate: hook }), 'Normal');
    assert.equal(afterInPlaceDone(pod('PreparingUpdate'), { preDelete: hook }), 'Normal');
    assert.equal(afterInPlaceDone(pod('Updating'), undefined), 'Normal');
  });
  test('Updated → Normal when all-hooked again or the hook is gone', () => {
    assert.ok(!updatedToNormal(hooked('Updated'), { inPlaceUpdate: hook }));
    assert.ok(updatedToNormal(allHooked('Updated'), { inPlaceUpdate: hook }));
    assert.ok(updatedToNormal(pod('Updated'), undefined));
  });
  test('refreshLifecycleState combines the passive rows', () => {
    assert.equal(refreshLifecycleState(pod('PreparingNormal', { nodeName: 'n' }), undefined, 'CloneSet', false), 'Normal');
    assert.equal(refreshLifecycleState(pod('Updating'), { inPlaceUpdate: hook }, 'CloneSet', false), undefined);
    assert.equal(refreshLifecycleState(pod('Updating'), { inPlaceUpdate: hook }, 'CloneSet', true), 'Updated');
    assert.equal(refreshLifecycleState(allHooked('Updated'), { inPlaceUpdate: hook }, 'StatefulSet', false), 'Normal');
    assert.equal(refreshLifecycleState(pod('Normal'), undefined, 'CloneSet', true), undefined);
  });
});

describe('KruisePodReady', () => {
  const now = new Date('2024-01-01T00:00:00Z');
  const gated = (conditions: PodCondition[] = []): Pod => ({
    metadata: { name: 'p' }, spec: { containers: [], readinessGates: [{ conditionType: 'KruisePodReady' }] }, status: { conditions },
  });
  const krp = (c: PodCondition[] | undefined) => c?.find((x) => x.type === 'KruisePodReady');
  test('message is a sorted JSON list of {userAgent,key}', () => {
    assert.equal(formatReadinessMessages([{ userAgent: 'Lifecycle', key: 'preUpdateHook' }, { userAgent: 'Lifecycle', key: 'preDeleteHook' }, { userAgent: 'Abc', key: 'z' }]),
      '[{"userAgent":"Abc","key":"z"},{"userAgent":"Lifecycle","key":"preDeleteHook"},{"userAgent":"Lifecycle","key":"preUpdateHook"}]');
  });
  test('entering PreparingDelete/PreparingUpdate adds keys with status False', () => {
    const c1 = readinessForState(gated([{ type: 'Ready', status: 'True' }, { type: 'KruisePodReady', status: 'True' }]), 'PreparingDelete', now);
    assert.deepEqual(krp(c1), { type: 'KruisePodReady', status: 'False', message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]', lastTransitionTime: '2024-01-01T00:00:00Z' });
    assert.equal(c1![0]!.type, 'Ready');
    const c2 = readinessForState(gated(c1), 'PreparingUpdate', now);
    assert.equal(krp(c2)?.message, '[{"userAgent":"Lifecycle","key":"preDeleteHook"},{"userAgent":"Lifecycle","key":"preUpdateHook"}]');
    assert.equal(readinessForState(gated(c2), 'PreparingUpdate', now), undefined);
  });
  test('entering Updated removes preUpdateHook; True once empty', () => {
    const both = addNotReadyKey(gated(addNotReadyKey(gated(), { userAgent: 'Lifecycle', key: 'preUpdateHook' }, now)), { userAgent: 'X', key: 'k' }, now);
    const left = readinessForState(gated(both), 'Updated', now);
    assert.deepEqual([krp(left)?.status, krp(left)?.message], ['False', '[{"userAgent":"X","key":"k"}]']);
    const empty = removeNotReadyKey(gated(left), { userAgent: 'X', key: 'k' }, now);
    assert.deepEqual([krp(empty)?.status, krp(empty)?.message], ['True', '[]']);
    assert.equal(removeNotReadyKey(gated(empty), { userAgent: 'X', key: 'k' }, now), undefined);
  });
  test('pods without the gate are left alone', () => {
    assert.equal(readinessForState({ metadata: {}, spec: { containers: [] } }, 'PreparingDelete', now), undefined);
  });
});
