import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, isProtobufContentType } from './decode.js';
import { envelope, intOrString, objectMeta, pb, quantity } from './test-encoder.js';

const decode = (body: Buffer) => decodeProtobufObject(body).object;

describe('decodeProtobufObject: what kubectl create sends', () => {
  test('Namespace: zero-valued Go fields are dropped, empty structs kept, zero time is null', () => {
    const body = envelope('v1', 'Namespace', objectMeta(1, { name: 'foo' }), pb.msg(2), pb.msg(3, pb.str(1, '')));
    const decoded = decodeProtobufObject(body);
    assert.equal(decoded.apiVersion, 'v1');
    assert.equal(decoded.kind, 'Namespace');
    assert.deepEqual(decoded.object, {
      kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'foo', creationTimestamp: null }, spec: {}, status: {},
    });
  });

  test('ConfigMap: data map, empty values kept', () => {
    const body = envelope('v1', 'ConfigMap', objectMeta(1, { name: 'cfg', namespace: 'default' }),
      pb.entry(2, 'a', pb.str(2, '1')), pb.entry(2, 'b', pb.str(2, '')), pb.entry(2, 'multi', pb.str(2, 'x\ny')));
    assert.deepEqual(decode(body), {
      kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cfg', namespace: 'default', creationTimestamp: null },
      data: { a: '1', b: '', multi: 'x\ny' },
    });
  });

  test('a "__proto__" map key is a plain key, as JSON.parse makes it', () => {
    const body = envelope('v1', 'ConfigMap', objectMeta(1, { name: 'cfg' }), pb.entry(2, '__proto__', pb.str(2, 'x')));
    const data = decode(body).data as Record<string, unknown>;
    assert.deepEqual(data, JSON.parse('{"__proto__":"x"}'));
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
  });

  test('Secret: bytes values become base64, a present pointer false is kept', () => {
    const body = envelope('v1', 'Secret', objectMeta(1, { name: 's' }),
      pb.entry(2, 'bin', pb.bytes(2, Buffer.from([0, 1, 2, 255]))), pb.entry(2, 'txt', pb.bytes(2, Buffer.from('hi'))),
      pb.str(3, 'Opaque'), pb.bool(5, false));
    assert.deepEqual(decode(body), {
      kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', creationTimestamp: null },
      data: { bin: 'AAEC/w==', txt: 'aGk=' }, type: 'Opaque', immutable: false,
    });
  });

  test('Deployment: replicas 0, intstr, inline LocalObjectReference, quantities', () => {
    const port = pb.msg(6, pb.str(1, ''), pb.int(2, 0), pb.int(3, 80), pb.str(4, 'TCP'), pb.str(5, ''));
    const envPlain = pb.msg(7, pb.str(1, 'A'), pb.str(2, 'x'));
    const cmRef = pb.msg(3, pb.msg(1, pb.str(1, 'cm')), pb.str(2, 'k'));
    const envFrom = pb.msg(7, pb.str(1, 'B'), pb.str(2, ''), pb.msg(3, cmRef));
    const resources = pb.msg(8, pb.entry(1, 'cpu', quantity('500m')), pb.entry(1, 'memory', quantity('128Mi')),
      pb.entry(2, 'cpu', quantity('250m')));
    const container = pb.msg(2, pb.str(1, 'web'), pb.str(2, 'nginx:1.25'), pb.str(5, ''), port, envPlain, envFrom,
      resources, pb.str(13, ''), pb.str(14, 'IfNotPresent'), pb.bool(16, false), pb.bool(17, false), pb.bool(18, false));
    const podSpec = pb.msg(2, container, pb.str(3, ''), pb.str(6, ''), pb.bool(11, false));
    const template = pb.msg(3, objectMeta(1, { labels: { app: 'web' } }), podSpec);
    const strategy = pb.msg(4, pb.str(1, 'RollingUpdate'), pb.msg(2, intOrString(1, 0), intOrString(2, '25%')));
    const selector = pb.msg(2, pb.entry(1, 'app', pb.str(2, 'web')));
    const spec = pb.msg(2, pb.int(1, 0), selector, template, strategy, pb.int(5, 0), pb.bool(7, false), pb.int(9, 600));
    const status = pb.msg(3, pb.int(1, 0), pb.int(2, 0), pb.int(3, 0), pb.int(4, 0), pb.int(5, 0));
    const body = envelope('apps/v1', 'Deployment', objectMeta(1, { name: 'web', namespace: 'default' }), spec, status);
    assert.deepEqual(decode(body), {
      kind: 'Deployment', apiVersion: 'apps/v1',
      metadata: { name: 'web', namespace: 'default', creationTimestamp: null },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' }, creationTimestamp: null },
          spec: {
            containers: [{
              name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }],
              env: [{ name: 'A', value: 'x' }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
              resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
              imagePullPolicy: 'IfNotPresent',
            }],
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
        progressDeadlineSeconds: 600,
      },
      status: {},
    });
  });

  test('Pod: creationTimestamp, negative int32, int64 pointers, packed and unpacked lists', () => {
    const container = pb.msg(2, pb.str(1, 'c'), pb.str(2, 'busybox'), pb.str(3, 'sleep'), pb.str(3, '1d'));
    const security = pb.msg(14, pb.int(4, 1000), pb.int(4, 2000), pb.msg(4, Buffer.concat([Buffer.from([7]), Buffer.from([8])])));
    const spec = pb.msg(2, container, pb.str(3, 'Never'), pb.int(4, 30), pb.int(25, -5), security);
    const meta = objectMeta(1, { name: 'p', created: [1704164645, 999_000_000], deletionGracePeriodSeconds: 0 });
    const body = envelope('v1', 'Pod', meta, spec, pb.msg(3, pb.str(1, 'Pending')));
    assert.deepEqual(decode(body), {
      kind: 'Pod', apiVersion: 'v1',
      metadata: { name: 'p', creationTimestamp: '2024-01-02T03:04:05Z', deletionGracePeriodSeconds: 0 },
      spec: {
        containers: [{ name: 'c', image: 'busybox', command: ['sleep', '1d'] }],
        restartPolicy: 'Never', terminationGracePeriodSeconds: 30, priority: -5,
        securityContext: { supplementalGroups: [1000, 2000, 7, 8] },
      },
      status: { phase: 'Pending' },
    });
  });

  test('Eviction with deleteOptions (pointer zero kept, preconditions)', () => {
    const options = pb.msg(2, pb.int(1, 0), pb.msg(2, pb.str(1, 'uid-1')));
    const body = envelope('policy/v1', 'Eviction', objectMeta(1, { name: 'p', namespace: 'default' }), options);
    assert.deepEqual(decode(body), {
      kind: 'Eviction', apiVersion: 'policy/v1',
      metadata: { name: 'p', namespace: 'default', creationTimestamp: null },
      deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: 'uid-1' } },
    });
  });

  test('DeleteOptions under any group version decodes as meta/v1 DeleteOptions', () => {
    for (const apiVersion of ['meta.k8s.io/v1', 'v1', 'apps/v1', 'batch/v1']) {
      const body = envelope(apiVersion, 'DeleteOptions', pb.str(4, 'Foreground'), pb.str(5, 'All'));
      assert.deepEqual(decode(body), { kind: 'DeleteOptions', apiVersion, propagationPolicy: 'Foreground', dryRun: ['All'] });
    }
  });
});

describe('isProtobufContentType', () => {
  test('matches the Kubernetes protobuf media type only', () => {
    assert.equal(isProtobufContentType('application/vnd.kubernetes.protobuf'), true);
    assert.equal(isProtobufContentType('Application/Vnd.Kubernetes.Protobuf; charset=utf-8'), true);
    assert.equal(isProtobufContentType('application/json'), false);
    assert.equal(isProtobufContentType('application/vnd.kubernetes.protobuf+json'), false);
    assert.equal(isProtobufContentType(''), false);
    assert.equal(isProtobufContentType(undefined), false);
  });
});
