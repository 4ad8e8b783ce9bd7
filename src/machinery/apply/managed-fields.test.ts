import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, ManagedFieldsEntry } from '../../api/meta.js';
import { recordUpdate, type UpdateOptions } from './managed-fields.js';
import { defaultHints, hintsFromFunction } from './type-hints.js';

const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T10:05:00Z';
const opts = (manager: string, now = T0, extra: Partial<UpdateOptions> = {}): UpdateOptions =>
  ({ manager, apiVersion: 'apps/v1', hints: defaultHints, now, ...extra });

function deployment(): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web', namespace: 'default', uid: 'u-1', resourceVersion: '7', generation: 1, creationTimestamp: T0,
      labels: { app: 'web' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
      },
    },
  };
}

const withFields = (obj: KObject, managedFields: ManagedFieldsEntry[]): KObject => ({ ...obj, metadata: { ...obj.metadata, managedFields } });
const fieldsOf = (entries: ManagedFieldsEntry[], manager: string): unknown => entries.find((e) => e.manager === manager)?.fieldsV1;

describe('recordUpdate', () => {
  test('create: the creator owns everything it set, in the upstream Update shape', () => {
    const entries = recordUpdate(undefined, deployment(), opts('kubectl-client-side-apply'));
    assert.equal(entries.length, 1);
    const { fieldsV1, ...rest } = entries[0];
    assert.deepEqual(rest, { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1' });
    assert.equal(JSON.stringify(fieldsV1), JSON.stringify({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
              },
            },
          },
        },
      },
    }));
  });

  test('a writer that sets only fields it owns gets a new time and keeps its fieldsV1, write after write', () => {
    const created = withFields(deployment(), recordUpdate(undefined, deployment(), opts('creator')));
    // as a controller writes: from a cache without managedFields
    const scaled = structuredClone(created);
    delete scaled.metadata.managedFields;
    (scaled.spec as { replicas: number }).replicas = 5;
    const entries = recordUpdate(created, scaled, opts('creator', T1));
    assert.equal(entries.length, 1);
    assert.equal(entries[0].time, T1);
    assert.equal(entries[0].fieldsV1, created.metadata.managedFields![0].fieldsV1, 'fieldsV1 kept, not encoded again');
    const again = structuredClone(scaled);
    (again.spec as { replicas: number }).replicas = 6;
    assert.equal(recordUpdate(withFields(scaled, entries), again, opts('creator', T1))[0].fieldsV1, entries[0].fieldsV1);
  });

  test('custom resources (no always-present fields) own their top-level maps as elements', () => {
    const cr: KObject = { apiVersion: 'x.io/v1', kind: 'Foo', metadata: { name: 'a' }, spec: { size: 1 } };
    const entries = recordUpdate(undefined, cr, { ...opts('m'), hints: hintsFromFunction(() => undefined) });
    assert.deepEqual(entries[0].fieldsV1, { 'f:spec': { '.': {}, 'f:size': {} } });
  });

  test('an update moves changed fields to the writer and leaves other entries alone', () => {
    const created = withFields(deployment(), recordUpdate(undefined, deployment(), opts('creator')));
    const scaled = structuredClone(created);
    (scaled.spec as { replicas: number }).replicas = 5;
    const entries = recordUpdate(created, scaled, opts('scaler', T1));
    assert.deepEqual(entries.map((e) => [e.manager, e.time]), [['creator', T0], ['scaler', T1]]);
    assert.deepEqual(fieldsOf(entries, 'scaler'), { 'f:spec': { 'f:replicas': {} } });
    assert.equal((fieldsOf(entries, 'creator') as { 'f:spec': Record<string, unknown> })['f:spec']['f:replicas'], undefined);
  });

  test('removed fields leave every entry; a writer that only removes gains no entry', () => {
    const created = withFields(deployment(), recordUpdate(undefined, deployment(), opts('creator')));
    const next = structuredClone(created);
    delete next.metadata.labels;
    const entries = recordUpdate(created, next, opts('remover', T1));
    assert.deepEqual(entries.map((e) => e.manager), ['creator']);
    assert.equal((fieldsOf(entries, 'creator') as Record<string, unknown>)['f:metadata'], undefined);
    assert.equal(entries[0].time, T0);
  });

  test('a no-op write changes nothing', () => {
    const created = withFields(deployment(), recordUpdate(undefined, deployment(), opts('creator')));
    assert.deepEqual(recordUpdate(created, structuredClone(created), opts('other', T1)), created.metadata.managedFields);
  });

  test('one entry per manager, apiVersion and subresource; sorted by operation then time', () => {
    const created = withFields(deployment(), recordUpdate(undefined, deployment(), opts('m', T1)));
    const next = structuredClone(created);
    next.status = { replicas: 2 };
    const withStatus = withFields(next, recordUpdate(created, next, opts('m', T0, { subresource: 'status' })));
    const relabeled = structuredClone(withStatus);
    relabeled.metadata.labels = { app: 'web', tier: 'x' };
    const entries = recordUpdate(withStatus, relabeled, opts('m', T1, { apiVersion: 'apps/v1beta2' }));
    assert.deepEqual(entries.map((e) => [e.apiVersion, e.subresource ?? '', e.time]), [
      ['apps/v1', 'status', T0], ['apps/v1', '', T1], ['apps/v1beta2', '', T1],
    ]);
  });

  test('managedFields [{}] resets tracking and the object stays untracked', () => {
    const created = withFields(deployment(), recordUpdate(undefined, deployment(), opts('creator')));
    const reset = withFields(deployment(), [{}]);
    (reset.spec as { replicas: number }).replicas = 3;
    assert.deepEqual(recordUpdate(created, reset, opts('x')), []);
    const untracked = withFields(deployment(), []);
    const later = structuredClone(untracked);
    (later.spec as { replicas: number }).replicas = 4;
    assert.deepEqual(recordUpdate(untracked, later, opts('y')), []);
  });

  test('valid managedFields in the request replace the live ones, except on subresources', () => {
    const live = withFields(deployment(), recordUpdate(undefined, deployment(), opts('creator')));
    const given: ManagedFieldsEntry[] = [{ manager: 'mine', operation: 'Update', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }];
    const asked = withFields(deployment(), given);
    assert.deepEqual(recordUpdate(live, asked, opts('w')).map((e) => e.manager), ['mine']);
    assert.deepEqual(recordUpdate(live, asked, opts('w', T0, { subresource: 'status' })).map((e) => e.manager), ['creator']);
    const invalid = withFields(deployment(), [{ manager: 'bad', operation: 'Update', fieldsV1: {} }]);
    assert.deepEqual(recordUpdate(live, invalid, opts('w')).map((e) => e.manager), ['creator']);
  });
});

/** A defaulted pod of about 3 KB with three managers, as the kubelet and scheduler leave it. */
function bigPod(): KObject {
  const container = (name: string) => ({
    name, image: `registry.example.com/team/${name}:1.2.3`, imagePullPolicy: 'IfNotPresent',
    args: ['--port=8080', '--verbose'], ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    env: [{ name: 'MODE', value: 'prod' }, { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
    terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
  });
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: 'web-7d9f8c6b5-abcde', namespace: 'default', uid: 'u', resourceVersion: '100', creationTimestamp: T0,
      labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      containers: [container('app'), container('sidecar')],
      volumes: [{ name: 'data', emptyDir: {} }, { name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] } }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default',
      nodeName: 'node-1', schedulerName: 'default-scheduler', securityContext: {}, priority: 0, enableServiceLinks: true,
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
    status: {
      phase: 'Running', podIP: '10.0.0.5', hostIP: '192.168.0.2', startTime: T0, qosClass: 'Burstable',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: T0 }, { type: 'PodScheduled', status: 'True', lastTransitionTime: T0 }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'x', imageID: 'y', state: { running: { startedAt: T0 } } }],
    },
  };
}

describe('recordUpdate performance', () => {
  test('a label change on a 3 KB pod with three managers', (t) => {
    const base = bigPod();
    let pod = withFields(base, recordUpdate(undefined, base, { ...opts('kube-controller-manager'), apiVersion: 'v1' }));
    const bound = structuredClone(pod);
    bound.status = base.status;
    pod = withFields(bound, recordUpdate(pod, bound, { ...opts('kubelet', T1), apiVersion: 'v1', subresource: 'status' }));
    const size = JSON.stringify(pod).length;
    const next = structuredClone(pod);
    next.metadata.labels = { ...next.metadata.labels, version: 'v2' };
    const run = (): ManagedFieldsEntry[] => recordUpdate(pod, next, { ...opts('kubectl-label', T1), apiVersion: 'v1' });
    for (let i = 0; i < 2000; i++) run();
    const n = 5000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) run();
    const micros = Number(process.hrtime.bigint() - start) / 1000 / n;
    t.diagnostic(`object ${size} bytes with managedFields (${JSON.stringify(base).length} without): recordUpdate ${micros.toFixed(1)} µs`);
    assert.deepEqual(fieldsOf(run(), 'kubectl-label'), { 'f:metadata': { 'f:labels': { 'f:version': {} } } });
    assert.ok(micros < 1000, `recordUpdate took ${micros} µs`); // target 100 µs; loose bound for loaded CI machines
  });
});
