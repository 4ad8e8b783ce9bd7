import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daemonControllers } from '../../daemon/controllers.js';
import { kruiseControllers } from '../index.js';

test('the CRR controllers run in the manager and in every daemon only with KruiseDaemon', () => {
  const manager = kruiseControllers.find((c) => c.name === 'containerrecreaterequest-controller')!;
  const daemon = daemonControllers.find((c) => c.name === 'containerrecreate')!;
  for (const reg of [manager, daemon]) {
    assert.equal(reg.enabled((g) => g === 'KruiseDaemon'), true);
    assert.equal(reg.enabled(() => false), false);
  }
});
