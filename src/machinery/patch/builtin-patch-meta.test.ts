import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinPatchSchema, hasBuiltinPatchMeta } from './builtin-patch-meta.js';
import { listTypeAt, schemaAt, type ListType } from './patch-schema.js';

const map = (key: string, keys?: string[]): ListType => (keys ? { kind: 'map', key, keys } : { kind: 'map', key });
const SET: ListType = { kind: 'set' };
const ATOMIC: ListType = { kind: 'atomic' };
const POD_SPEC = ['spec', 'template', 'spec'];

describe('builtinPatchSchema merge keys (Go struct tags)', () => {
  const cases: Array<[string, string, string[], ListType]> = [
    ['', 'Pod', ['spec', 'containers'], map('name')],
    ['', 'Pod', ['spec', 'initContainers'], map('name')],
    ['', 'Pod', ['spec', 'ephemeralContainers'], map('name')],
    ['', 'Pod', ['spec', 'volumes'], map('name')],
    ['', 'Pod', ['spec', 'imagePullSecrets'], map('name')],
    ['', 'Pod', ['spec', 'hostAliases'], map('ip')],
    ['', 'Pod', ['spec', 'topologySpreadConstraints'], map('topologyKey', ['topologyKey', 'whenUnsatisfiable'])],
    ['', 'Pod', ['spec', 'containers', 'env'], map('name')],
    ['', 'Pod', ['spec', 'containers', 'ports'], map('containerPort', ['containerPort', 'protocol'])],
    ['', 'Pod', ['spec', 'containers', 'volumeMounts'], map('mountPath')],
    ['', 'Pod', ['spec', 'initContainers', 'volumeDevices'], map('devicePath')],
    ['', 'Pod', ['spec', 'tolerations'], ATOMIC],
    ['', 'Pod', ['spec', 'containers', 'args'], ATOMIC],
    ['', 'Pod', ['spec', 'containers', 'command'], ATOMIC],
    ['', 'Pod', ['spec', 'containers', 'envFrom'], ATOMIC],
    ['', 'Pod', ['status', 'conditions'], map('type')],
    ['', 'Pod', ['metadata', 'finalizers'], SET],
    ['', 'Pod', ['metadata', 'ownerReferences'], map('uid')],
    ['', 'PodTemplate', ['template', 'spec', 'containers'], map('name')],
    ['apps', 'Deployment', [...POD_SPEC, 'containers'], map('name')],
    ['apps', 'Deployment', ['spec', 'template', 'metadata', 'finalizers'], SET],
    ['apps', 'Deployment', ['status', 'conditions'], map('type')],
    ['apps', 'ReplicaSet', [...POD_SPEC, 'containers', 'env'], map('name')],
    ['apps', 'StatefulSet', [...POD_SPEC, 'volumes'], map('name')],
    ['apps', 'StatefulSet', ['spec', 'volumeClaimTemplates'], ATOMIC],
    ['apps', 'DaemonSet', [...POD_SPEC, 'initContainers'], map('name')],
    ['batch', 'Job', [...POD_SPEC, 'containers'], map('name')],
    ['batch', 'Job', ['status', 'conditions'], map('type')],
    ['batch', 'CronJob', ['spec', 'jobTemplate', ...POD_SPEC, 'containers'], map('name')],
    ['', 'Service', ['spec', 'ports'], map('port', ['port', 'protocol'])],
    ['', 'Node', ['status', 'addresses'], map('type')],
    ['', 'Node', ['status', 'conditions'], map('type')],
    ['', 'Node', ['spec', 'podCIDRs'], SET],
    ['', 'Node', ['spec', 'taints'], ATOMIC],
    ['', 'Namespace', ['status', 'conditions'], map('type')],
    ['', 'PersistentVolumeClaim', ['status', 'conditions'], map('type')],
    ['policy', 'PodDisruptionBudget', ['status', 'conditions'], map('type')],
    ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration', ['webhooks'], map('name')],
    ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', ['webhooks'], map('name')],
    ['', 'Endpoints', ['subsets'], ATOMIC],
    ['', 'ConfigMap', ['metadata', 'ownerReferences'], map('uid')],
    ['coordination.k8s.io', 'Lease', ['metadata', 'finalizers'], SET],
    ['apiextensions.k8s.io', 'CustomResourceDefinition', ['spec', 'versions'], ATOMIC],
    ['example.com', 'Unknown', ['metadata', 'finalizers'], SET],
  ];
  for (const [group, kind, path, want] of cases) {
    test(`${group || 'core'}/${kind} ${path.join('.')}`, () => assert.deepEqual(listTypeAt(builtinPatchSchema(group, kind), path), want));
  }

  test('retainKeys on Deployment strategy and volume items', () => {
    assert.equal(schemaAt(builtinPatchSchema('apps', 'Deployment'), ['spec', 'strategy'])?.retainKeys, true);
    assert.equal(schemaAt(builtinPatchSchema('', 'Pod'), ['spec', 'volumes'])?.items?.retainKeys, true);
  });

  test('table coverage and caching', () => {
    assert.equal(hasBuiltinPatchMeta('apps', 'Deployment'), true);
    assert.equal(hasBuiltinPatchMeta('', 'ConfigMap'), false);
    assert.equal(builtinPatchSchema('apps', 'Deployment'), builtinPatchSchema('apps', 'Deployment'));
  });
});
