import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mutatingWebhookInventory, validatingWebhookInventory, webhookInventory, webhookPaths } from './webhook-inventory.js';

const byName = (name: string) => webhookInventory.find((e) => e.name === name)!;

describe('webhook inventory', () => {
  test('12 mutating and 25 validating entries with unique names', () => {
    assert.equal(mutatingWebhookInventory.length, 12);
    assert.equal(validatingWebhookInventory.length, 25);
    assert.equal(new Set(webhookInventory.map((e) => `${e.type}/${e.name}`)).size, 37);
  });

  test('Kruise kinds: both versions, current path and the -v1alpha1- alias', () => {
    const cs = byName('vcloneset.kb.io');
    assert.deepEqual(cs.rule, { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['clonesets'], operations: ['CREATE', 'UPDATE', 'DELETE'] });
    assert.deepEqual(webhookPaths(cs), ['/validate-apps-kruise-io-cloneset', '/validate-apps-kruise-io-v1alpha1-cloneset']);
    assert.equal(cs.failurePolicy, 'Fail');
    assert.deepEqual(webhookPaths(byName('vpodunavailablebudget.kb.io')), ['/validate-policy-kruise-io-podunavailablebudget', '/validate-policy-kruise-io-v1alpha1-podunavailablebudget']);
    assert.deepEqual(byName('vpodprobemarker.kb.io').rule.apiVersions, ['v1alpha1']);
    assert.deepEqual(webhookPaths(byName('vephemeraljobs.kb.io')), ['/validate-apps-kruise-io-v1alpha1-ephemeraljob']);
    assert.equal(byName('mimagepulljob-v1beta1.kb.io').path, '/mutate-apps-kruise-io-imagepulljob');
  });

  test('pod entries: gated, shared /validate-pod, Kruise and kube-system namespaces excluded', () => {
    const eviction = byName('vpodeviction.kb.io');
    assert.deepEqual([eviction.path, eviction.rule.resources, eviction.rule.operations], ['/validate-pod', ['pods/eviction'], ['CREATE']]);
    assert.deepEqual(byName('vpod.kb.io').rule.operations, ['UPDATE', 'DELETE']);
    for (const name of ['mpod.kb.io', 'vpod.kb.io', 'vpodeviction.kb.io']) {
      const e = byName(name);
      assert.equal(e.gate, 'PodWebhook');
      assert.deepEqual(e.namespaceSelector?.matchExpressions?.map((r) => `${r.key} ${r.operator} ${r.values}`), [
        'control-plane NotIn openkruise', 'kubernetes.io/metadata.name NotIn kube-system',
      ]);
    }
  });

  test('the seven deletion-protection entries: Ignore, labelled objects only, kube-system excluded', () => {
    const protection = validatingWebhookInventory.filter((e) => e.failurePolicy === 'Ignore');
    assert.deepEqual(protection.map((e) => e.name), [
      'vbuiltindeployment.kb.io', 'vbuiltinreplicaset.kb.io', 'vbuiltinstatefulset.kb.io', 'vnamespace.kb.io',
      'vcustomresourcedefinition.kb.io', 'vservice.kb.io', 'vingress.kb.io',
    ]);
    for (const e of protection) {
      assert.deepEqual(e.rule.operations, ['DELETE']);
      assert.deepEqual(e.objectSelector, { matchExpressions: [{ key: 'policy.kruise.io/delete-protection', operator: 'Exists' }] });
      assert.deepEqual(e.namespaceSelector, { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] });
    }
    assert.equal(byName('vservice.kb.io').gate, 'ResourcesDeletionProtection');
    assert.deepEqual(byName('vcustomresourcedefinition.kb.io').rule.apiVersions, ['v1', 'v1beta1']);
  });
});
