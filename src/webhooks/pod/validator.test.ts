import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionRequest } from '../../api/admission.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { fakeClient } from '../protection/testkit.js';
import { createPodValidator, podValidationSteps, podWebhooks, type PodValidationStep } from './index.js';

const request: AdmissionRequest = {
  uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
  namespace: 'ns1', name: 'p', operation: 'DELETE', userInfo: { username: 'alice' },
};
const input: AdmissionInput = { request, version: 'v1', client: fakeClient(), gate: (n) => n !== 'Off' };

describe('pod validating chain', () => {
  test('runs enabled steps in the documented order and stops at the first refusal', async () => {
    const ran: string[] = [];
    const step = (name: PodValidationStep['name'], refuse = false, gate = 'On'): PodValidationStep => ({
      name, enabled: (g) => g(gate),
      validate: () => { ran.push(name); if (refuse) throw new AdmissionDenied(429, `${name} says no`); },
    });
    assert.deepEqual(await createPodValidator([step('pub'), step('workloadspread')])(input), []);
    assert.deepEqual(ran, ['workloadspread', 'pub']);
    ran.length = 0;
    await assert.rejects(createPodValidator([step('pub'), step('workloadspread', true)])(input), { message: 'workloadspread says no', code: 429 });
    assert.deepEqual(ran, ['workloadspread']);
    ran.length = 0;
    await createPodValidator([step('workloadspread', true, 'Off'), step('pub')])(input);
    assert.deepEqual(ran, ['pub']);
    assert.throws(() => createPodValidator([step('pub'), step('pub')]), /repeated/);
  });

  test('with the WorkloadSpread and PUB steps registered the validating handler is served, so vpod and vpodeviction stay', () => {
    assert.deepEqual(podValidationSteps.map((s) => s.name), ['workloadspread', 'pub']);
    assert.equal(typeof podWebhooks.validate, 'function');
  });
});
