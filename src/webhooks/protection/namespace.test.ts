import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { namespaceProtectionWebhooks } from './namespace.js';
import { deletionProtectionMetrics } from './metrics.js';
import { counterValue, deleteInput, failing, fakeClient, labelled, tempProtectionLog } from './testkit.js';

const prefix = 'forbidden by ResourcesProtectionDeletion for';
const denied = (message: string) => ({ name: 'AdmissionDenied', code: 403, message });
const validate = async (input: ReturnType<typeof deleteInput>) => namespaceProtectionWebhooks.validate!(input);
const nsCount = (name: string) => counterValue(deletionProtectionMetrics.namespaceDeletion, { name, username: 'alice' });
const pod = (namespace: string, name: string, phase: string, deleting = false): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) }, status: { phase } });
const pvc = (namespace: string, name: string, phase: string, deleting = false): KObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace, ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) }, status: { phase } });

describe('namespace deletion protection', () => {
  let log: Awaited<ReturnType<typeof tempProtectionLog>>;
  before(async () => { log = await tempProtectionLog(); });
  after(async () => { await log.close(); });

  test('Always denies; without the label the delete proceeds', async () => {
    await assert.rejects(validate(deleteInput('Namespace', labelled('Always', { name: 'dp2' }))), denied(`${prefix} policy.kruise.io/delete-protection=Always`));
    assert.equal(await nsCount('dp2'), 1);
    assert.deepEqual(await validate(deleteInput('Namespace', labelled(undefined, { name: 'dp2' }))), []);
    assert.equal(await nsCount('dp2'), 1);
    assert.deepEqual(await log.lines(), [{ Event: 'DeletionProtection', Kind: 'Namespace', Namespace: '', Name: 'dp2', UserAgent: 'alice' }]);
  });

  test('Cascading: active pods, then Bound PVCs, then allowed', async () => {
    const ns = labelled('Cascading', { name: 'dp3' });
    const running = fakeClient({ objects: [pod('dp3', 'web', 'Running'), pod('other', 'x', 'Running'), pvc('dp3', 'data', 'Bound')] });
    await assert.rejects(validate(deleteInput('Namespace', ns, { client: running })), denied(`${prefix} policy.kruise.io/delete-protection=Cascading and active pods 1>0`));
    assert.deepEqual(running.lists.map((c) => [c.type.resource, c.options?.namespace]), [['pods', 'dp3']]);

    const onlyClaim = fakeClient({ objects: [pod('dp3', 'done', 'Succeeded'), pod('dp3', 'failed', 'Failed'), pod('dp3', 'going', 'Running', true), pvc('dp3', 'data', 'Bound')] });
    await assert.rejects(validate(deleteInput('Namespace', ns, { client: onlyClaim })), denied(`${prefix} policy.kruise.io/delete-protection=Cascading and "Bound" status pvc 1>0`));

    const unboundOrGoing = fakeClient({ objects: [pvc('dp3', 'pending', 'Pending'), pvc('dp3', 'old', 'Bound', true)] });
    assert.deepEqual(await validate(deleteInput('Namespace', ns, { client: unboundOrGoing })), []);
    assert.deepEqual(await validate(deleteInput('Namespace', ns, { client: fakeClient() })), []);
    assert.equal(await nsCount('dp3'), 2);
  });

  test('a failed list denies and is counted', async () => {
    const ns = labelled('Cascading', { name: 'dp-err' });
    await assert.rejects(validate(deleteInput('Namespace', ns, { client: fakeClient({ failList: failing('pods') }) })), denied(`${prefix} list pods error: etcd unavailable for pods`));
    await assert.rejects(validate(deleteInput('Namespace', ns, { client: fakeClient({ failList: failing('persistentvolumeclaims') }) })), denied(`${prefix} list pvc error: etcd unavailable for persistentvolumeclaims`));
    assert.equal(await nsCount('dp-err'), 2);
  });

  test('gate off and an invalid value: no protection, no list calls', async () => {
    const client = fakeClient({ objects: [pod('dp7', 'web', 'Running')] });
    assert.deepEqual(await validate(deleteInput('Namespace', labelled('Always', { name: 'dp7' }), { client, gates: { ResourcesDeletionProtection: false } })), []);
    assert.deepEqual(await validate(deleteInput('Namespace', labelled('Sometimes', { name: 'dp7' }), { client })), []);
    assert.equal(client.lists.length, 0);
    assert.equal(await nsCount('dp7'), 0);
  });

  test('dry-run is denied; a terminating namespace is not', async () => {
    await assert.rejects(validate(deleteInput('Namespace', labelled('Always', { name: 'dp8' }), { dryRun: true })), denied(`${prefix} policy.kruise.io/delete-protection=Always`));
    assert.deepEqual(await validate(deleteInput('Namespace', labelled('Always', { name: 'dp8', deletionTimestamp: '2024-01-01T00:00:00Z' }))), []);
    assert.equal(await nsCount('dp8'), 1);
  });
});
