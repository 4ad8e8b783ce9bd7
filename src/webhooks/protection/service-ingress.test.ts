import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { configureDeletionProtection, deletionProtectionMetrics, ingressProtectionWebhooks, serviceProtectionWebhooks } from './index.js';
import { deleteInput, labelled, tempProtectionLog } from './testkit.js';

const validate = async (hooks: typeof serviceProtectionWebhooks, input: ReturnType<typeof deleteInput>) => hooks.validate!(input);
const total = async () => {
  let sum = 0;
  for (const c of [deletionProtectionMetrics.namespaceDeletion, deletionProtectionMetrics.crdDeletion, deletionProtectionMetrics.workloadDeletion]) {
    for (const v of (await c.get()).values) sum += v.value;
  }
  return sum;
};

describe('Service and Ingress deletion protection', () => {
  let log: Awaited<ReturnType<typeof tempProtectionLog>>;
  before(async () => { log = await tempProtectionLog(); });
  after(async () => { await log.close(); });

  test('Cascading deletes; Always is denied with no metric and no log line', async () => {
    const before = await total();
    for (const [kind, hooks] of [['Service', serviceProtectionWebhooks], ['Ingress', ingressProtectionWebhooks]] as const) {
      assert.deepEqual(await validate(hooks, deleteInput(kind, labelled('Cascading', { name: 'web', namespace: 'dp6' }))), []);
      await assert.rejects(validate(hooks, deleteInput(kind, labelled('Always', { name: 'web', namespace: 'dp6' }))),
        { name: 'AdmissionDenied', code: 403, message: 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always' });
    }
    assert.equal(await total(), before);
    assert.deepEqual(await log.lines(), []);
  });

  test('gate off and a terminating object: allowed', async () => {
    assert.deepEqual(await validate(serviceProtectionWebhooks, deleteInput('Service', labelled('Always', { name: 'web', namespace: 'dp6' }), { gates: { ResourcesDeletionProtection: false } })), []);
    assert.deepEqual(await validate(ingressProtectionWebhooks, deleteInput('Ingress', labelled('Always', { name: 'web', namespace: 'dp6', deletionTimestamp: '2024-01-01T00:00:00Z' }))), []);
  });
});

describe('configureDeletionProtection', () => {
  test('serves the three counters on the manager registry, once', async () => {
    const registry = new Registry();
    configureDeletionProtection({ registry });
    configureDeletionProtection({ registry });
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
    assert.deepEqual(names, ['crd_deletion_protection', 'namespace_deletion_protection', 'workload_deletion_protection']);
  });
});
