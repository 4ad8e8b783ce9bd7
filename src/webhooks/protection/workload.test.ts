import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWorkloadDeletion, deploymentProtectionWebhooks, replicaSetProtectionWebhooks, statefulSetProtectionWebhooks } from './workload.js';
import { deletionProtectionMetrics } from './metrics.js';
import { counterValue, deleteInput, labelled, tempProtectionLog } from './testkit.js';

const always = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always';
const denied = (message: string) => ({ name: 'AdmissionDenied', code: 403, message });
const workloadCount = (kindNamespaceName: string, username = 'alice') =>
  counterValue(deletionProtectionMetrics.workloadDeletion, { kind_namespace_name: kindNamespaceName, username });

describe('workload deletion protection', () => {
  let log: Awaited<ReturnType<typeof tempProtectionLog>>;
  before(async () => { log = await tempProtectionLog(); });
  after(async () => { await log.close(); });

  test('Deployment Cascading: denied while replicas > 0, counted once, logged; allowed at 0', async () => {
    const guarded = (replicas: number) => labelled('Cascading', { name: 'guarded', namespace: 'dp1' }, { spec: { replicas } });
    await assert.rejects(
      deploymentProtectionWebhooks.validate!(deleteInput('Deployment', guarded(2), { group: 'apps' })) as Promise<unknown>,
      denied('forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and replicas 2>0'),
    );
    assert.equal(await workloadCount('Deployment_dp1_guarded'), 1);
    assert.deepEqual(await log.lines(), [{ Event: 'DeletionProtection', Kind: 'Deployment', Namespace: 'dp1', Name: 'guarded', UserAgent: 'alice' }]);

    assert.deepEqual(await deploymentProtectionWebhooks.validate!(deleteInput('Deployment', guarded(0), { group: 'apps' })), []);
    assert.equal(await workloadCount('Deployment_dp1_guarded'), 1);
    assert.equal((await log.lines()).length, 1);
  });

  test('Kruise workloads: Always denied, Cascading with replicas 0 allowed', async () => {
    for (const kind of ['CloneSet', 'StatefulSet', 'UnitedDeployment']) {
      const input = deleteInput(kind, labelled('Always', { name: `k-${kind}`, namespace: 'dp4' }, { spec: { replicas: 0 } }), { group: 'apps.kruise.io', username: 'bob' });
      await assert.rejects(checkWorkloadDeletion(input), denied(always));
      assert.equal(await workloadCount(`${kind}_dp4_k-${kind}`, 'bob'), 1, kind);
      await checkWorkloadDeletion(deleteInput(kind, labelled('Cascading', { name: `c-${kind}`, namespace: 'dp4' }, { spec: { replicas: 0 } }), { group: 'apps.kruise.io' }));
    }
  });

  test('Cascading without spec.replicas is allowed', async () => {
    await checkWorkloadDeletion(deleteInput('CloneSet', labelled('Cascading', { name: 'noreplicas', namespace: 'dp4' }, { spec: {} })));
  });

  test('ReplicaSet and StatefulSet handlers apply the same rules', async () => {
    for (const [kind, hooks] of [['ReplicaSet', replicaSetProtectionWebhooks], ['StatefulSet', statefulSetProtectionWebhooks]] as const) {
      const obj = labelled('Cascading', { name: 'x', namespace: 'dp5' }, { spec: { replicas: 3 } });
      await assert.rejects(
        hooks.validate!(deleteInput(kind, obj, { group: 'apps' })) as Promise<unknown>,
        denied('forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and replicas 3>0'),
      );
      assert.equal(await workloadCount(`${kind}_dp5_x`), 1);
    }
  });

  test('gate off: everything deletes freely and nothing is counted', async () => {
    const obj = labelled('Always', { name: 'gateoff', namespace: 'dp7' }, { spec: { replicas: 5 } });
    await checkWorkloadDeletion(deleteInput('Deployment', obj, { gates: { ResourcesDeletionProtection: false } }));
    assert.equal(await workloadCount('Deployment_dp7_gateoff'), 0);
  });

  test('dry-run deletes are denied like real ones', async () => {
    const obj = labelled('Always', { name: 'dry', namespace: 'dp8' }, { spec: { replicas: 1 } });
    await assert.rejects(checkWorkloadDeletion(deleteInput('Deployment', obj, { dryRun: true })), denied(always));
    assert.equal(await workloadCount('Deployment_dp8_dry'), 1);
  });

  test('invalid or missing label value protects nothing', async () => {
    for (const value of ['Sometimes', 'always', '', undefined]) {
      await checkWorkloadDeletion(deleteInput('Deployment', labelled(value, { name: 'loose', namespace: 'dp9' }, { spec: { replicas: 2 } })));
    }
    assert.equal(await workloadCount('Deployment_dp9_loose'), 0);
  });

  test('terminating objects, other operations, subresources and a missing old object pass', async () => {
    const obj = (extra: { deletionTimestamp?: string } = {}) => labelled('Always', { name: 'skip', namespace: 'dp0', ...extra }, { spec: { replicas: 1 } });
    await checkWorkloadDeletion(deleteInput('Deployment', obj({ deletionTimestamp: '2024-01-01T00:00:00Z' })));
    await checkWorkloadDeletion(deleteInput('Deployment', obj(), { operation: 'UPDATE' }));
    await checkWorkloadDeletion(deleteInput('Deployment', obj(), { subResource: 'status' }));
    await checkWorkloadDeletion(deleteInput('Deployment', undefined));
    assert.equal(await workloadCount('Deployment_dp0_skip'), 0);
  });
});
