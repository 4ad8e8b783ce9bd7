import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LifecycleState } from '../../control/lifecycle/index.js';
import { nextRefreshState, withLifecycleState } from './refresh.js';
import { pod, revision, set } from './test-kit.js';

const hooks = { preNormal: { labelsHandler: { ok: 'y' } }, inPlaceUpdate: { labelsHandler: { hold: 'y' } } };
const state = (s: string, labels: Record<string, string> = {}, rev = 'web-old') =>
  pod('web-0', { revision: rev, labels: { 'lifecycle.apps.kruise.io/state': s, ...labels } });

test('lifecycle refresh of an ASTS pod (docs/design/inplace-update.md §9)', () => {
  const c = { set: set({ lifecycle: hooks }), update: revision('web-new') };
  const plain = { set: set(), update: revision('web-new') };
  const cases: [string, ReturnType<typeof state>, typeof c, string | undefined][] = [
    ['PreparingNormal waits for the preNormal labels', state('PreparingNormal'), c, undefined],
    ['PreparingNormal with the labels becomes Normal', state('PreparingNormal', { ok: 'y' }), c, 'Normal'],
    ['PreparingNormal without a preNormal hook becomes Normal', state('PreparingNormal'), plain, 'Normal'],
    ['PreparingUpdate on an old revision stays', state('PreparingUpdate'), c, undefined],
    ['PreparingUpdate already at the update revision (rollback), hook gone → Updated', state('PreparingUpdate', {}, 'web-new'), c, 'Updated'],
    ['PreparingUpdate at the update revision with the hook → Normal', state('PreparingUpdate', { hold: 'y' }, 'web-new'), c, 'Normal'],
    ['Updating finished, hook gone → Updated', state('Updating'), c, 'Updated'],
    ['Updating finished without a hook → Normal', state('Updating'), plain, 'Normal'],
    ['Updated with the hook back → Normal', state('Updated', { hold: 'y' }), c, 'Normal'],
    ['Updated without the hook stays', state('Updated'), c, undefined],
    ['Normal stays', state('Normal'), c, undefined],
  ];
  for (const [name, p, ctx, want] of cases) assert.equal(nextRefreshState(ctx, p), want, name);
});

test('the lifecycle move rides on the condition write: state label, timestamp, KruisePodReady with markPodNotReady', () => {
  const now = Date.parse('2024-05-01T10:00:00Z');
  const next = () => {
    const p = state('Updating');
    p.spec.readinessGates = [{ conditionType: 'KruisePodReady' }];
    p.status = { ...p.status, conditions: [{ type: 'KruisePodReady', status: 'False', message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]' }] };
    return p;
  };
  const plain = withLifecycleState({ set: set(), now }, next(), 'Normal' as LifecycleState);
  assert.equal(plain.metadata.labels?.['lifecycle.apps.kruise.io/state'], 'Normal');
  assert.equal(plain.metadata.annotations?.['lifecycle.apps.kruise.io/timestamp'], '2024-05-01T10:00:00Z');
  assert.equal(plain.status?.conditions?.find((c) => c.type === 'KruisePodReady')?.status, 'False', 'left alone without markPodNotReady');
  const marked = withLifecycleState({ set: set({ lifecycle: { inPlaceUpdate: { labelsHandler: { hold: 'y' }, markPodNotReady: true } } }), now }, next(), 'Updated' as LifecycleState);
  assert.equal(marked.metadata.labels?.['lifecycle.apps.kruise.io/state'], 'Updated');
  assert.equal(marked.status?.conditions?.find((c) => c.type === 'KruisePodReady')?.status, 'True', 'preUpdateHook key removed');
  const untouched = next();
  assert.equal(withLifecycleState({ set: set(), now }, untouched, undefined), untouched);
});
