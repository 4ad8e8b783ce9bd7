import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenNodeLabels } from './node-labels.js';

test('labels a kubelet may not set or change, as kube-apiserver v1.32 answered (authorization.md §17)', () => {
  assert.deepEqual(forbiddenNodeLabels({
    'node-restriction.kubernetes.io/a': 'b', 'x.node-restriction.kubernetes.io/b': '', 'node-role.kubernetes.io/master': '', 'kops.k8s.io/x': 'y',
    'kubernetes.io/hostname': 'n', 'topology.kubernetes.io/zone': 'z', 'kubelet.kubernetes.io/k': '1', 'foo.node.kubernetes.io/f': '1', foo: 'bar', 'example.com/x': '1',
  }, {}), ['kops.k8s.io/x', 'node-restriction.kubernetes.io/a', 'node-role.kubernetes.io/master', 'x.node-restriction.kubernetes.io/b']);
  // unchanged labels pass, removals of protected ones do not
  assert.deepEqual(forbiddenNodeLabels({ 'node-role.kubernetes.io/w': '' }, { 'node-role.kubernetes.io/w': '', 'node-restriction.kubernetes.io/a': 'b', 'kubernetes.io/hostname': 'n' }), ['node-restriction.kubernetes.io/a']);
});
