import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { crdProtectionWebhooks, storageResourceOf } from './crd.js';
import { deletionProtectionMetrics } from './metrics.js';
import { counterValue, deleteInput, failing, fakeClient, labelled, tempProtectionLog } from './testkit.js';

const denied = (message: string) => ({ name: 'AdmissionDenied', code: 403, message });
const validate = async (input: ReturnType<typeof deleteInput>) => crdProtectionWebhooks.validate!(input);
const crdCount = (name: string) => counterValue(deletionProtectionMetrics.crdDeletion, { name, username: 'alice' });
const widgetsCrd = (value: string | undefined) => labelled(value, { name: 'widgets.example.com' }, {
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1alpha1', served: true, storage: false }, { name: 'v1', served: true, storage: true }],
  },
});
const widget = (namespace: string, name: string, deleting = false): KObject =>
  ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace, ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) } });
const bothGates = { DeletionProtectionForCRDCascadingGate: true };
const del = (crd: KObject, options: Parameters<typeof deleteInput>[2] = {}) => deleteInput('CustomResourceDefinition', crd, { group: 'apiextensions.k8s.io', ...options });

describe('CRD deletion protection', () => {
  let log: Awaited<ReturnType<typeof tempProtectionLog>>;
  before(async () => { log = await tempProtectionLog(); });
  after(async () => { await log.close(); });

  test('Cascading with the CRD gate off is denied outright', async () => {
    await assert.rejects(validate(del(widgetsCrd('Cascading'))), denied('feature-gate DeletionProtectionForCRDCascadingGate is not enabled'));
    assert.equal(await crdCount('widgets.example.com'), 1);
    assert.deepEqual(await log.lines(), [{ Event: 'DeletionProtection', Kind: 'CustomResourceDefinition', Namespace: '', Name: 'widgets.example.com', UserAgent: 'alice' }]);
  });

  test('gate on: one live CR denies (listed at the storage version in all namespaces); none allows', async () => {
    const client = fakeClient({ objects: [widget('a', 'w1'), widget('b', 'gone', true)] });
    await assert.rejects(validate(del(widgetsCrd('Cascading'), { client, gates: bothGates })),
      denied('forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and active CRs 1>0'));
    assert.deepEqual(client.lists, [{ type: { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true }, options: undefined }]);
    assert.deepEqual(await validate(del(widgetsCrd('Cascading'), { client: fakeClient({ objects: [widget('b', 'gone', true)] }), gates: bothGates })), []);
    assert.equal(await crdCount('widgets.example.com'), 2);
  });

  test('Always denies regardless of the CRD gate; a failed list denies', async () => {
    await assert.rejects(validate(del(widgetsCrd('Always'), { gates: bothGates })), denied('forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always'));
    await assert.rejects(validate(del(widgetsCrd('Cascading'), { client: fakeClient({ failList: failing('widgets') }), gates: bothGates })),
      denied('failed to list CRs of example.com/v1, Kind=Widget: etcd unavailable for widgets'));
  });

  test('gate off, an invalid value, terminating CRD: allowed', async () => {
    const client = fakeClient({ objects: [widget('a', 'w1')] });
    assert.deepEqual(await validate(del(widgetsCrd('Always'), { client, gates: { ResourcesDeletionProtection: false, ...bothGates } })), []);
    assert.deepEqual(await validate(del(widgetsCrd('Sometimes'), { client, gates: bothGates })), []);
    const terminating = widgetsCrd('Always');
    terminating.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    assert.deepEqual(await validate(del(terminating, { client, gates: bothGates })), []);
    assert.equal(client.lists.length, 0);
  });

  test('storage version of v1beta1 CRDs and cluster scope', () => {
    const legacy = { metadata: { name: 'gadgets.example.com' }, spec: { group: 'example.com', version: 'v1beta1', scope: 'Cluster', names: { plural: 'gadgets', kind: 'Gadget' } } };
    assert.deepEqual(storageResourceOf(legacy), { group: 'example.com', version: 'v1beta1', resource: 'gadgets', kind: 'Gadget', namespaced: false });
  });
});
