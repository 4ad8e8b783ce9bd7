import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPassContext, type PassContext } from './pass.js';
import type { CloneSet } from './pods.js';
import { refreshedState } from './refresh-labels.js';
import type { Pod } from '../../api/core/index.js';

const STATE = 'lifecycle.apps.kruise.io/state';
const hook = { finalizersHandler: ['example.io/gate'] };
const context = (lifecycle: unknown): PassContext => newPassContext({
  cs: { metadata: { name: 'demo' }, spec: { replicas: 1, selector: {}, template: {}, lifecycle } } as unknown as CloneSet,
  pods: [], owned: [], claims: [], now: 0, key: 'default/demo', gate: () => false,
} as unknown as Omit<PassContext, 'isUpdated' | 'isAvailable'>, 'demo-new');
const pod = (state: string, revision: string, finalizers?: string[]): Pod =>
  ({ metadata: { name: 'p', labels: { [STATE]: state, 'controller-revision-hash': revision }, finalizers }, spec: { containers: [], nodeName: 'n1' } });

test('a PreparingUpdate pod whose revision became the update revision again goes to Updated/Normal (rollback)', () => {
  assert.equal(refreshedState(context({ inPlaceUpdate: hook }), pod('PreparingUpdate', 'demo-new')), 'Updated');
  assert.equal(refreshedState(context({ inPlaceUpdate: hook }), pod('PreparingUpdate', 'demo-new', ['example.io/gate'])), 'Normal');
  assert.equal(refreshedState(context({ inPlaceUpdate: hook }), pod('PreparingUpdate', 'demo-old')), undefined, 'still waiting to update');
});

test('the passive rows still apply: PreparingNormal with a node → Normal, Updated all-hooked → Normal', () => {
  assert.equal(refreshedState(context(undefined), pod('PreparingNormal', 'demo-new')), 'Normal');
  assert.equal(refreshedState(context({ inPlaceUpdate: hook }), pod('Updated', 'demo-new', ['example.io/gate'])), 'Normal');
  assert.equal(refreshedState(context({ inPlaceUpdate: hook }), pod('Updated', 'demo-new')), undefined);
});
