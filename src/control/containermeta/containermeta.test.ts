import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeContainersMetaAnnotation } from '../../api/kruise/workloads/labels.js';
import { currentEnvHash, envFromMetadata, envHashesConsistent, expectedEnvHash, formatRuntimeMetaSet, metadataReference, readRuntimeMetaSet } from './index.js';
import type { Container, Pod } from '../../api/core/index.js';

const fromAnnotation = (name: string, key: string) => ({ name, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${key}']` } } });
const fromLabel = (name: string, key: string) => ({ name, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${key}']` } } });
const app: Container = { name: 'app', image: 'nginx', env: [{ name: 'PLAIN', value: 'a' }, fromAnnotation('X', 'x'), fromLabel('Y', 'y'), { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }] };

describe('extracted-env hash', () => {
  test('only env read from a label or annotation counts; SidecarSet version variables never do', () => {
    assert.deepEqual(metadataReference("metadata.labels['a.b/c']"), { field: 'labels', key: 'a.b/c' });
    assert.equal(metadataReference('metadata.name'), undefined);
    const sidecar: Container = { name: 's', env: [fromAnnotation('SIDECARSET_VERSION', 'v'), fromAnnotation('Z', 'z')] };
    assert.deepEqual(envFromMetadata(app).map((r) => r.name), ['X', 'Y']);
    assert.deepEqual(envFromMetadata(sidecar).map((r) => r.name), ['Z']);
  });

  const cases: { what: string; meta: { labels?: Record<string, string>; annotations?: Record<string, string> }; env: Record<string, string>; equal: boolean }[] = [
    { what: 'the values the container holds', meta: { annotations: { x: '1' }, labels: { y: '2' } }, env: { X: '1', Y: '2', PLAIN: 'other' }, equal: true },
    { what: 'an annotation changed since', meta: { annotations: { x: '2' }, labels: { y: '2' } }, env: { X: '1', Y: '2' }, equal: false },
    { what: 'a label changed since', meta: { annotations: { x: '1' }, labels: { y: '3' } }, env: { X: '1', Y: '2' }, equal: false },
    { what: 'an absent key reads as empty, as kubelet sets it', meta: {}, env: { X: '', Y: '' }, equal: true },
    { what: 'other metadata changed', meta: { annotations: { x: '1', other: 'z' }, labels: { y: '2', more: 'q' } }, env: { X: '1', Y: '2' }, equal: true },
  ];
  for (const c of cases) {
    test(`expected vs current: ${c.what}`, () => {
      assert.equal(expectedEnvHash(app, c.meta) === currentEnvHash(app, new Map(Object.entries(c.env))), c.equal);
    });
  }

  test('env order does not matter and the hash is never 0 (0 means "not read")', () => {
    const reordered: Container = { ...app, env: [...app.env!].reverse() };
    const meta = { annotations: { x: '1' }, labels: { y: '2' } };
    assert.equal(expectedEnvHash(reordered, meta), expectedEnvHash(app, meta));
    assert.ok(expectedEnvHash({ name: 'none' }, {}) > 0);
  });
});

describe('runtime-containers-meta', () => {
  const set = { containers: [{ name: 'app', containerID: 'containerd://abc', restartCount: 1, hashes: { plainHash: 7, plainHashWithoutResources: 0, extractedEnvFromMetadataHash: 9 } }] };

  test('upstream\'s JSON, key for key; a zero env hash is left out; unreadable means absent', () => {
    assert.equal(formatRuntimeMetaSet(set),
      '{"containers":[{"name":"app","containerID":"containerd://abc","restartCount":1,"hashes":{"plainHash":7,"plainHashWithoutResources":0,"extractedEnvFromMetadataHash":9}}]}');
    const noEnv = { containers: [{ ...set.containers[0]!, hashes: { plainHash: 7, plainHashWithoutResources: 0 } }] };
    assert.doesNotMatch(formatRuntimeMetaSet(noEnv), /extracted/);
    const pod = (text: string) => ({ metadata: { annotations: { [RuntimeContainersMetaAnnotation]: text } }, spec: { containers: [] } }) as Pod;
    assert.deepEqual(readRuntimeMetaSet(pod(formatRuntimeMetaSet(set))), set);
    assert.equal(readRuntimeMetaSet(pod('{not json')), undefined);
    assert.equal(readRuntimeMetaSet(pod('{"other":1}')), undefined);
  });

  test('consistent: same container ID as the status and the expected env hash, for every spec container', () => {
    const meta = { annotations: { x: '1' }, labels: { y: '2' } };
    const hash = expectedEnvHash(app, meta);
    const pod = (containerID: string, envHash: number): Pod => ({
      metadata: meta, spec: { containers: [app] },
      status: { containerStatuses: [{ name: 'app', containerID, image: 'nginx', imageID: 'i', ready: true, restartCount: 0 }] },
    } as Pod);
    const entry = (envHash: number) => ({ containers: [{ name: 'app', containerID: 'containerd://new', restartCount: 1, hashes: { plainHash: 1, plainHashWithoutResources: 0, extractedEnvFromMetadataHash: envHash } }] });
    assert.equal(envHashesConsistent(pod('containerd://new', hash), entry(hash)), true);
    assert.equal(envHashesConsistent(pod('containerd://old', hash), entry(hash)), false, 'status still shows the old container');
    assert.equal(envHashesConsistent(pod('containerd://new', hash), entry(hash + 1)), false, 'the container runs with other values');
    assert.equal(envHashesConsistent(pod('containerd://new', hash), { containers: [] }), false, 'no entry');
  });
});
