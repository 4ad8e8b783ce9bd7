import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StatusError } from '../../../machinery/errors.js';
import { decodeProtobufObject } from './decode.js';
import { descriptor } from './descriptor.js';
import { envelope, objectMeta, pb } from './test-encoder.js';
import { formatDuration, formatTime } from './well-known.js';

const decode = (body: Buffer) => decodeProtobufObject(body).object;
const meta = { name: 'x', creationTimestamp: null };

describe('well-known types', () => {
  test('Go duration strings', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '0s'], [7n, '7ns'], [1500n, '1.5µs'], [300_000_000n, '300ms'], [1_500_000_000n, '1.5s'],
      [90_000_000_000n, '1m30s'], [3_600_000_000_000n, '1h0m0s'], [-2_000_000_000n, '-2s'],
      [90_061_250_000_000n, '25h1m1.25s'],
    ];
    for (const [nanos, text] of cases) assert.equal(formatDuration(nanos), text, `${nanos}ns`);
  });

  test('Time has whole seconds, MicroTime six digits, both in UTC', () => {
    assert.equal(formatTime(1704164645n, 999_999_999n, false), '2024-01-02T03:04:05Z');
    assert.equal(formatTime(1704164645n, 123_456_789n, true), '2024-01-02T03:04:05.123456Z');
    assert.equal(formatTime(0n, 0n, true), '1970-01-01T00:00:00.000000Z');
    assert.equal(formatTime(-62_135_596_801n, 0n, false), '0000-12-31T23:59:59Z');
    assert.throws(() => formatTime(-62_167_219_201n, 0n, false), /outside years/);
    assert.throws(() => formatTime(253_402_300_800n, 0n, false), /outside years/);
  });

  test('events.k8s.io Event: MicroTime eventTime; Lease: MicroTime and pointer ints', () => {
    const event = envelope('events.k8s.io/v1', 'Event', objectMeta(1, { name: 'x' }),
      pb.msg(2, pb.int(1, 1704164645), pb.int(2, 123_456_000)), pb.str(4, 'kubectl'), pb.str(6, 'Created'));
    assert.deepEqual(decode(event), {
      kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: meta,
      eventTime: '2024-01-02T03:04:05.123456Z', reportingController: 'kubectl', action: 'Created',
    });
    const lease = envelope('coordination.k8s.io/v1', 'Lease', objectMeta(1, { name: 'x' }),
      pb.msg(2, pb.str(1, 'node-a'), pb.int(2, 40), pb.msg(3, pb.int(1, 1704164645), pb.int(2, 0))));
    assert.deepEqual(decode(lease).spec, { holderIdentity: 'node-a', leaseDurationSeconds: 40, acquireTime: '2024-01-02T03:04:05.000000Z' });
  });

  test('RawExtension holds JSON, or a nested protobuf object; FieldsV1 is JSON', () => {
    const inner = envelope('v1', 'ConfigMap', objectMeta(1, { name: 'c' }));
    const rev = (raw: Buffer) => envelope('apps/v1', 'ControllerRevision', objectMeta(1, { name: 'x' }), pb.msg(2, pb.bytes(1, raw)), pb.int(3, 2));
    assert.deepEqual(decode(rev(Buffer.from('{"spec":{"a":[1,2]}}'))), {
      kind: 'ControllerRevision', apiVersion: 'apps/v1', metadata: meta, data: { spec: { a: [1, 2] } }, revision: 2,
    });
    assert.deepEqual(decode(rev(inner)).data, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', creationTimestamp: null } });
    const managed = pb.msg(17, pb.str(1, 'kubectl'), pb.str(2, 'Update'), pb.str(3, 'v1'), pb.str(6, 'FieldsV1'),
      pb.msg(7, pb.bytes(1, Buffer.from('{"f:data":{".":{}}}'))), pb.str(8, ''));
    const cm = envelope('v1', 'ConfigMap', pb.msg(1, pb.str(1, 'x'), managed));
    assert.deepEqual(decode(cm).metadata, {
      name: 'x', managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {} } } }],
    });
  });

  test('map of ExtraValue becomes a map of string lists', () => {
    const spec = pb.msg(2, pb.str(3, 'alice'), pb.str(4, 'system:authenticated'),
      pb.entry(5, 'scopes', pb.msg(2, pb.str(1, 'a'), pb.str(1, 'b'))), pb.str(6, 'uid-1'));
    const body = envelope('authorization.k8s.io/v1', 'SubjectAccessReview', objectMeta(1, { name: '' }), spec);
    assert.deepEqual(decode(body).spec, { user: 'alice', groups: ['system:authenticated'], extra: { scopes: ['a', 'b'] }, uid: 'uid-1' });
  });

  test('unknown fields of every wire type are skipped', () => {
    const body = envelope('v1', 'Namespace', objectMeta(1, { name: 'n' }), pb.int(90, 5), pb.fixed32(91), pb.fixed64(92), pb.str(93, 'z'));
    assert.deepEqual(decode(body), { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'n', creationTimestamp: null } });
  });
});

describe('malformed bodies are 400 BadRequest', () => {
  const badRequest = (message: RegExp) => (e: unknown) =>
    e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest' && message.test(e.message);

  test('clear messages', () => {
    assert.throws(() => decodeProtobufObject(Buffer.alloc(0)), badRequest(/body of the request was empty/));
    assert.throws(() => decodeProtobufObject(Buffer.from('{"kind":"Pod"}')), badRequest(/k8s\\x00/));
    assert.throws(() => decodeProtobufObject(envelope('v1', 'Frob')), badRequest(/no kind "Frob" is registered for version "v1"/));
    assert.throws(() => decodeProtobufObject(envelope('v1', '')), badRequest(/Kind' is missing/));
    const truncated = envelope('v1', 'Pod', objectMeta(1, { name: 'p' })).subarray(0, -8);
    assert.throws(() => decodeProtobufObject(truncated), badRequest(/unable to decode protobuf request body: .*length/));
    const wrongWire = envelope('apps/v1', 'Deployment', pb.msg(2, pb.str(1, 'three')));
    assert.throws(() => decodeProtobufObject(wrongWire), badRequest(/DeploymentSpec.replicas: wire type 2, expected 0/));
    const badJson = envelope('apps/v1', 'ControllerRevision', pb.msg(2, pb.bytes(1, Buffer.from('{nope'))));
    assert.throws(() => decodeProtobufObject(badJson), badRequest(/neither JSON nor protobuf/));
  });

  test('random bytes after the envelope never escape as anything but a 400', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('v1/Pod', 'apps/v1/Deployment', 'v1/Secret'), (raw, gvk) => {
      const [kind, ...rest] = gvk.split('/').reverse();
      try {
        decodeProtobufObject(envelope(rest.reverse().join('/'), kind, Buffer.from(raw)));
      } catch (e) {
        assert.ok(e instanceof StatusError && e.code === 400, String(e));
      }
    }), { numRuns: 2000 });
  });
});

test('descriptor: generated header, every kind resolves to a message', () => {
  assert.match(descriptor.header, /k8s\.io\/api, .*apiextensions-apiserver v0\.32\.10.*Apache-2\.0.*DO NOT EDIT/);
  for (const [kind, message] of Object.entries(descriptor.kinds)) assert.ok(descriptor.messages[message], kind);
  for (const kind of ['v1/Namespace', 'apps/v1/Deployment', 'batch/v1/CronJob', 'policy/v1/PodDisruptionBudget',
    'rbac.authorization.k8s.io/v1/ClusterRole', 'scheduling.k8s.io/v1/PriorityClass', 'v1/ResourceQuota',
    'autoscaling/v1/Scale', 'autoscaling/v2/HorizontalPodAutoscaler', 'authentication.k8s.io/v1/TokenRequest']) {
    assert.ok(descriptor.kinds[kind], kind);
  }
});
