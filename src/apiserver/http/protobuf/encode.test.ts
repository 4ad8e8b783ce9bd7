import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject } from './decode.js';
import { encodeProtobufObject, encodeWatchFrame, splitWatchFrames } from './encode.js';
import { parseDuration } from './well-known-encode.js';
import { prefersProtobuf } from '../query.js';

/** JSON -> protobuf -> JSON must give the object back (zero scalars aside, which both forms omit). */
const roundTrip = (object: Record<string, unknown>) => decodeProtobufObject(encodeProtobufObject(object)!).object;

const pod = {
  kind: 'Pod', apiVersion: 'v1',
  metadata: {
    name: 'web-0', namespace: 'default', uid: '1b2c', resourceVersion: '42', generation: 1,
    creationTimestamp: '2026-11-27T16:00:00Z', labels: { b: '2', a: '1' }, annotations: { note: 'ünïcode ✓' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true, blockOwnerDeletion: true }],
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-11-27T16:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } }],
  },
  spec: {
    containers: [{
      name: 'c', image: 'nginx:1.27', args: ['-g', 'daemon off;'], ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: { limits: { cpu: '500m', memory: '128Mi' } },
      livenessProbe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' }, periodSeconds: 10, failureThreshold: 3 },
      readinessProbe: { tcpSocket: { port: 8080 }, timeoutSeconds: 1 },
    }],
    terminationGracePeriodSeconds: 30, restartPolicy: 'Always', enableServiceLinks: true, securityContext: {},
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    volumes: [{ name: 'v', emptyDir: {} }, { name: 's', secret: { secretName: 'x', defaultMode: 420 } }],
  },
  status: { phase: 'Pending', qosClass: 'Burstable', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-11-27T16:00:01Z' }] },
};

describe('encodeProtobufObject: response bodies a client-go decoder reads back', () => {
  test('a Pod decodes to the same object: maps, inline embeddings, int-or-string, quantities, times', () => {
    assert.deepEqual(roundTrip(pod), pod);
  });

  test('negative ints, doubles, bytes, durations and a MicroTime survive', () => {
    const secret = { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', creationTimestamp: null }, data: { k: Buffer.from([0, 255, 7]).toString('base64') }, type: 'Opaque' };
    assert.deepEqual(roundTrip(secret), secret);
    const event = { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { name: 'e', creationTimestamp: '2026-01-02T03:04:05Z' }, eventTime: '2026-01-02T03:04:05.123456Z', reportingController: 'x', reportingInstance: 'y', action: 'A', reason: 'R', type: 'Normal' };
    assert.deepEqual(roundTrip(event), event);
    const hpa = { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', metadata: { name: 'h', creationTimestamp: null }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 3, minReplicas: 1, behavior: { scaleDown: { stabilizationWindowSeconds: -1, policies: [{ type: 'Pods', value: 4, periodSeconds: 60 }] } } } };
    assert.deepEqual(roundTrip(hpa), hpa);
    for (const d of ['0s', '1h0m0s', '1m30s', '1.5s', '300ms', '-2m0s']) assert.equal(typeof parseDuration(d), 'number');
    assert.equal(parseDuration('1h2m3.5s'), 3_723_500_000_000);
  });

  test('a list, a Status and a CRD with schema unions', () => {
    const list = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '43', continue: 'abc', remainingItemCount: 2 }, items: [pod, pod] };
    // Items carry no kind/apiVersion on the wire (kube's protobuf lists have none either).
    const { kind: _k, apiVersion: _a, ...bare } = pod;
    assert.deepEqual(roundTrip(list), { ...list, items: [bare, bare] });
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'pods' }, code: 404 };
    assert.deepEqual(roundTrip(status), status);
    const crd = {
      kind: 'CustomResourceDefinition', apiVersion: 'apiextensions.k8s.io/v1', metadata: { name: 'foos.example.com', creationTimestamp: null },
      spec: { group: 'example.com', names: { plural: 'foos', kind: 'Foo' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: {
        type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { a: [1, 'b'] },
        properties: { spec: { type: 'object', additionalProperties: { type: 'string' } }, open: { type: 'object', additionalProperties: false }, tuple: { type: 'array', items: { type: 'integer', minimum: -3.5 } } },
      } } }] },
    };
    assert.deepEqual(roundTrip(crd), crd);
  });

  test('custom resources and Tables have no wire message', () => {
    assert.equal(encodeProtobufObject({ kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'c' } }), undefined);
    assert.equal(encodeProtobufObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', rows: [] }), undefined);
  });

  test('watch frames: length-prefixed WatchEvents whose raw is the object body', () => {
    const stream = Buffer.concat([encodeWatchFrame('ADDED', pod)!, encodeWatchFrame('DELETED', pod)!]);
    const frames = splitWatchFrames(stream);
    assert.deepEqual(frames.map((f) => f.type), ['ADDED', 'DELETED']);
    assert.deepEqual(decodeProtobufObject(frames[1]!.raw).object, pod);
  });

  test('a 200 KiB object (multi-byte lengths all the way down)', () => {
    const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'big', creationTimestamp: null }, data: { big: 'x'.repeat(200_000), small: 'y' } };
    assert.deepEqual(roundTrip(cm), cm);
  });
});

describe('prefersProtobuf: content negotiation', () => {
  test('client-go typed clients get protobuf; JSON-first, Tables and custom q-values do not', () => {
    assert.equal(prefersProtobuf('application/vnd.kubernetes.protobuf,application/json'), true);
    assert.equal(prefersProtobuf('application/vnd.kubernetes.protobuf;stream=watch'), true);
    assert.equal(prefersProtobuf('application/json, application/vnd.kubernetes.protobuf'), false);
    assert.equal(prefersProtobuf('application/json;q=0.5, application/vnd.kubernetes.protobuf'), true);
    assert.equal(prefersProtobuf('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json'), false);
    assert.equal(prefersProtobuf(undefined), false);
  });
});
