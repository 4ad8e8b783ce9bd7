import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextRefreshState } from './refresh.js';
import { pod, revision, set } from './test-kit.js';

const hooks = { preNormal: { labelsHandler: { ok: 'y' } }, inPlaceUpdate: { labelsHandler: { hold: 'y' } } };
const state = (s: string, labels: Record<string, string> = {}, rev = 'web-old') =>
  pod('web-0', { revision: rev, labels: { 'lifecycle.apps.kruise.io/state': s, ...labels } });

test('lifecycle refresh of an ASTS pod (workloads.md §3)', () => {
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
