import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

const obj = (name: string, fields: Record<string, unknown>): KObject => ({ metadata: { name }, ...fields });

describe('configmaps and secrets', () => {
  const configMaps = findBuiltin('', 'configmaps');
  const secrets = findBuiltin('', 'secrets');

  test('secret type defaults to Opaque and stringData folds into data', () => {
    const { object } = simulateCreate(secrets, obj('s', { data: { a: 'eA==' }, stringData: { b: 'héllo', a: 'y' } }));
    assert.equal(object.type, 'Opaque');
    assert.deepEqual(object.data, { a: Buffer.from('y').toString('base64'), b: Buffer.from('héllo').toString('base64') });
    assert.equal(object.stringData, undefined);
  });

  test('keys must be config keys', () => {
    assert.deepEqual(simulateCreate(configMaps, obj('c', { data: { 'a b': 'x' } })).errors, [
      "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
  });

  test('typed secrets need their keys', () => {
    assert.deepEqual(simulateCreate(secrets, obj('s', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==' } })).errors, ['data[tls.key]: Required value']);
  });

  test('immutable data and type', () => {
    const old = simulateCreate(configMaps, obj('c', { data: { a: '1' }, immutable: true })).object;
    assert.deepEqual(simulateUpdate(configMaps, old, obj('c', { data: { a: '2' }, immutable: true })).errors,
      ['data: Forbidden: field is immutable when `immutable` is set']);
    const secret = simulateCreate(secrets, obj('s', {})).object;
    assert.deepEqual(simulateUpdate(secrets, secret, obj('s', { type: 'example.com/x' })).errors, ['type: Invalid value: "example.com/x": field is immutable']);
  });
});

describe('rbac', () => {
  const roles = findBuiltin('rbac.authorization.k8s.io', 'roles');
  const bindings = findBuiltin('rbac.authorization.k8s.io', 'clusterrolebindings');

  test('rules need verbs, groups and resources; roles no URLs', () => {
    assert.deepEqual(simulateCreate(roles, obj('r', { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }, {}] })).errors, [
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
      'rules[1].verbs: Required value: verbs must contain at least one value',
      'rules[1].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[1].resources: Required value: resource rules must supply at least one resource',
    ]);
  });

  test('bindings: apiGroup defaults, roleRef rules, immutable roleRef', () => {
    const { object, errors } = simulateCreate(bindings, obj('b', {
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' }],
    }));
    assert.deepEqual(errors, []);
    assert.deepEqual(object.roleRef, { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' });
    assert.equal((object.subjects as { apiGroup?: string }[])[0].apiGroup, 'rbac.authorization.k8s.io');
    assert.equal((object.subjects as { apiGroup?: string }[])[1].apiGroup, undefined);
    assert.deepEqual(simulateUpdate(bindings, object, obj('b', { roleRef: { kind: 'ClusterRole', name: 'edit' } })).errors,
      ['roleRef: Invalid value: {"kind":"ClusterRole","name":"edit","apiGroup":"rbac.authorization.k8s.io"}: cannot change roleRef']);
    assert.deepEqual(simulateCreate(bindings, obj('b', { roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] })).errors, [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"', 'subjects[0].namespace: Required value',
    ]);
  });
});

describe('leases, PDBs, storage and scheduling', () => {
  test('lease durations', () => {
    const leases = findBuiltin('coordination.k8s.io', 'leases');
    assert.deepEqual(simulateCreate(leases, obj('l', { spec: { holderIdentity: 'a', leaseDurationSeconds: 0, leaseTransitions: -1 } })).errors, [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  test('pdb: one of minAvailable or maxUnavailable', () => {
    const pdbs = findBuiltin('policy', 'poddisruptionbudgets');
    const spec = { minAvailable: 1, maxUnavailable: '150%', selector: { matchLabels: { app: 'a' } } };
    assert.deepEqual(simulateCreate(pdbs, obj('p', { spec })).errors, [
      `spec: Invalid value: ${JSON.stringify(spec)}: minAvailable and maxUnavailable cannot be both set`,
      'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    ]);
  });

  test('pvc defaults and immutability', () => {
    const claims = findBuiltin('', 'persistentvolumeclaims');
    const claim = obj('data', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } });
    const { object, errors } = simulateCreate(claims, claim);
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' });
    assert.deepEqual(object.status, { phase: 'Pending' });
    const grown = structuredClone(object);
    (grown.spec as { resources: { requests: { storage: string } } }).resources.requests.storage = '2Gi';
    assert.deepEqual(simulateUpdate(claims, object, grown).errors, []);
    const moved = structuredClone(object);
    (moved.spec as Record<string, unknown>).storageClassName = 'fast';
    assert.deepEqual(simulateUpdate(claims, object, moved).errors,
      ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n']);
    assert.deepEqual(simulateCreate(claims, obj('x', { spec: {} })).errors,
      ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
  });

  test('storage classes and priority classes', () => {
    const storageClasses = findBuiltin('storage.k8s.io', 'storageclasses');
    const sc = simulateCreate(storageClasses, obj('fast', { provisioner: 'example.com/disk' })).object;
    assert.equal(sc.reclaimPolicy, 'Delete');
    assert.equal(sc.volumeBindingMode, 'Immediate');
    assert.deepEqual(simulateUpdate(storageClasses, sc, { ...sc, parameters: { a: 'b' } }).errors, ['parameters: Forbidden: updates to parameters are forbidden.']);
    const priorityClasses = findBuiltin('scheduling.k8s.io', 'priorityclasses');
    const pc = simulateCreate(priorityClasses, obj('high', { value: 1000 })).object;
    assert.equal(pc.preemptionPolicy, 'PreemptLowerPriority');
    assert.deepEqual(simulateUpdate(priorityClasses, pc, { ...pc, value: 5 }).errors, ['value: Forbidden: may not be changed in an update.']);
    assert.deepEqual(simulateCreate(priorityClasses, obj('system-mine', { value: 1 })).errors,
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only"]);
    assert.deepEqual(simulateCreate(priorityClasses, obj('system-node-critical', { value: 2000001000 })).errors, []);
  });

  test('limit range container defaults', () => {
    const limitRanges = findBuiltin('', 'limitranges');
    const { object } = simulateCreate(limitRanges, obj('l', { spec: { limits: [{ type: 'Container', max: { cpu: '2000m' }, min: { memory: '64Mi' } }] } }));
    assert.deepEqual((object.spec as { limits: unknown[] }).limits[0], {
      type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' },
    });
  });

  test('replication controllers take selector and labels from the template', () => {
    const rcs = findBuiltin('', 'replicationcontrollers');
    const { object, errors } = simulateCreate(rcs, obj('rc', { spec: { template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }));
    assert.deepEqual(errors, []);
    assert.deepEqual((object.spec as { selector: unknown }).selector, { app: 'a' });
    assert.deepEqual(object.metadata.labels, { app: 'a' });
    assert.equal((object.spec as { replicas: number }).replicas, 1);
  });
});
