import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

const deployments = findBuiltin('apps', 'deployments');
const replicaSets = findBuiltin('apps', 'replicasets');
const statefulSets = findBuiltin('apps', 'statefulsets');
const daemonSets = findBuiltin('apps', 'daemonsets');

const template = (labels: Record<string, string> = { app: 'web' }) => ({
  metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx' }] },
});
const workload = (kind: string, spec: Record<string, unknown> = {}): KObject => ({
  apiVersion: 'apps/v1', kind, metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});

const templateSpecDefaults = {
  containers: [{ name: 'web', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
  dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', terminationGracePeriodSeconds: 30, securityContext: {}, schedulerName: 'default-scheduler',
};

describe('apps/v1 defaults', () => {
  test('deployment', () => {
    const { object, errors } = simulateCreate(deployments, workload('Deployment'));
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: templateSpecDefaults },
      replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
    });
  });

  test('Recreate gets no rollingUpdate', () => {
    const { object } = simulateCreate(deployments, workload('Deployment', { strategy: { type: 'Recreate' } }));
    assert.deepEqual((object.spec as { strategy: unknown }).strategy, { type: 'Recreate' });
  });

  test('replicaset', () => {
    const { object } = simulateCreate(replicaSets, workload('ReplicaSet'));
    assert.equal((object.spec as { replicas: number }).replicas, 1);
    assert.deepEqual((object.spec as { template: { spec: unknown } }).template.spec, templateSpecDefaults);
  });

  test('statefulset, including claim templates', () => {
    const { object, errors } = simulateCreate(statefulSets, workload('StatefulSet', {
      serviceName: 'web',
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } }],
    }));
    assert.deepEqual(errors, []);
    const spec = object.spec as Record<string, unknown>;
    assert.equal(spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.equal(spec.replicas, 1);
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.deepEqual(spec.volumeClaimTemplates, [{
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    }]);
  });

  test('daemonset', () => {
    const { object } = simulateCreate(daemonSets, workload('DaemonSet'));
    const spec = object.spec as Record<string, unknown>;
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.replicas, undefined);
  });
});

describe('apps/v1 validation', () => {
  const mismatch = 'spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`';
  const cases: [string, KObject, string[]][] = [
    ['selector required', workload('Deployment', { selector: undefined }), ['spec.selector: Required value']],
    ['selector mismatch', workload('Deployment', { template: template({ app: 'other' }) }), [mismatch]],
    ['empty selector', workload('Deployment', { selector: {} }), ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    ['negative replicas', workload('Deployment', { replicas: -1 }), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    ['template restartPolicy must be Always', workload('ReplicaSet', { template: { ...template(), spec: { ...template().spec, restartPolicy: 'Never' } } }),
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['both rolling values zero', workload('Deployment', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0']],
    ['statefulset mismatch', workload('StatefulSet', { template: template({ app: 'other' }) }), [mismatch]],
    ['daemonset mismatch', workload('DaemonSet', { template: template({ app: 'other' }) }), [mismatch]],
    ['matchExpressions operator', workload('Deployment', { selector: { matchExpressions: [{ key: 'app', operator: 'Is' }] } }),
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`']],
  ];
  const byKind: Record<string, typeof deployments> = { Deployment: deployments, ReplicaSet: replicaSets, StatefulSet: statefulSets, DaemonSet: daemonSets };
  for (const [name, obj, expected] of cases) {
    test(name, () => assert.deepEqual(simulateCreate(byKind[obj.kind!], obj).errors, expected));
  }

  test('selector is immutable for deployments, replicasets and daemonsets', () => {
    for (const kind of ['Deployment', 'ReplicaSet', 'DaemonSet']) {
      const r = byKind[kind];
      const old = simulateCreate(r, workload(kind)).object;
      const next = structuredClone(old);
      (next.spec as Record<string, unknown>).selector = { matchLabels: { app: 'web', tier: 'x' } };
      (next.spec as { template: { metadata: { labels: object } } }).template.metadata.labels = { app: 'web', tier: 'x' };
      assert.deepEqual(simulateUpdate(r, old, next).errors,
        ['spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable'], kind);
    }
  });

  test('a deployment template change is a valid update', () => {
    const old = simulateCreate(deployments, workload('Deployment')).object;
    const next = structuredClone(old);
    (next.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image = 'nginx:2';
    assert.deepEqual(simulateUpdate(deployments, old, next).errors, []);
  });

  test('statefulset spec outside the updatable fields is forbidden', () => {
    const old = simulateCreate(statefulSets, workload('StatefulSet', { serviceName: 'a' })).object;
    const scaled = structuredClone(old);
    (scaled.spec as Record<string, unknown>).replicas = 3;
    assert.deepEqual(simulateUpdate(statefulSets, old, scaled).errors, []);
    const renamed = structuredClone(old);
    (renamed.spec as Record<string, unknown>).serviceName = 'b';
    assert.deepEqual(simulateUpdate(statefulSets, old, renamed).errors, [
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', "
      + "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"]);
  });

  test('replicaset status.replicas field selector', () => {
    assert.deepEqual(replicaSets.strategy.fieldAttributes!({ metadata: {}, status: { replicas: 3 } }), { 'status.replicas': '3' });
  });
});

describe('daemonset update strategy', () => {
  const daemonSets = findBuiltin('apps', 'daemonsets');
  const ds = (updateStrategy: unknown): KObject => ({
    metadata: { name: 'agent' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy },
  });
  test('exactly one of maxUnavailable and maxSurge is non-zero', () => {
    assert.deepEqual(simulateCreate(daemonSets, ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } })).errors,
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']);
    assert.deepEqual(simulateCreate(daemonSets, ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } })).errors,
      ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero']);
    assert.deepEqual(simulateCreate(daemonSets, ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } })).errors, []);
  });
});
