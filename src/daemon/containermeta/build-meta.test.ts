import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeContainersMetaAnnotation } from '../../api/kruise/workloads/labels.js';
import { currentEnvHash, expectedEnvHash, formatRuntimeMetaSet, type RuntimeContainerMetaSet } from '../../control/containermeta/index.js';
import { buildMeta, type MetaInputs } from './build-meta.js';
import { reportOutdated, worthAdding } from './pod-filter.js';
import type { RuntimeContainer } from './runtime-containers.js';
import type { Container, Pod } from '../../api/core/index.js';

const app: Container = { name: 'app', image: 'nginx', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['x']" } } }] };

function pod(x: string, containerID: string, inPlaceReady: 'True' | 'False', meta?: RuntimeContainerMetaSet, owner = 'apps.kruise.io/v1beta1'): Pod {
  return {
    metadata: {
      name: 'p', namespace: 'ns', uid: 'u', annotations: { x, ...(meta ? { [RuntimeContainersMetaAnnotation]: formatRuntimeMetaSet(meta) } : {}) },
      ownerReferences: [{ apiVersion: owner, kind: 'CloneSet', name: 'cs', uid: 'o', controller: true }],
    },
    spec: { containers: [app] },
    status: {
      conditions: [{ type: 'InPlaceUpdateReady', status: inPlaceReady }],
      containerStatuses: [{ name: 'app', containerID, image: 'nginx', imageID: 'i', ready: true, restartCount: 0 }],
    },
  } as Pod;
}

const runtime = (id: string, running = true): Map<string, RuntimeContainer> =>
  new Map([['app', { name: 'app', id, running, restartCount: 2, plainHash: 0xabc, plainHashWithoutResources: 0 }]]);

function inputs(p: Pod, containers: Map<string, RuntimeContainer>, env: Record<string, string>, old?: RuntimeContainerMetaSet): MetaInputs & { reads: string[] } {
  const reads: string[] = [];
  return {
    pod: p, runtimeName: 'containerd', containers, old, envFromMetadata: true, reads,
    readEnv: async (id) => { reads.push(id); return new Map(Object.entries(env)); },
  };
}

const hashOf = (x: string) => currentEnvHash(app, new Map([['X', x]]));
const entry = (id: string, envHash?: number) => ({ name: 'app', containerID: `containerd://${id}`, restartCount: 2, hashes: { plainHash: 0xabc, plainHashWithoutResources: 0, ...(envHash ? { extractedEnvFromMetadataHash: envHash } : {}) } });

describe('building the runtime meta', () => {
  test('a new container: the kubelet\'s restart count and hash, and the hash of the env it runs with', async () => {
    const i = inputs(pod('v1', 'containerd://c1', 'True'), runtime('c1'), { X: 'v1' });
    const out = await buildMeta(i);
    assert.deepEqual(out.set, { containers: [entry('c1', hashOf('v1'))] });
    assert.deepEqual([out.restart, i.reads], [[], ['c1']]);
  });

  test('a known container keeps its entry: its environment is read once', async () => {
    const old = { containers: [entry('c1', hashOf('v1'))] };
    const i = inputs(pod('v1', 'containerd://c1', 'True', old), runtime('c1'), { X: 'changed?' }, old);
    assert.deepEqual((await buildMeta(i)).set, old);
    assert.deepEqual(i.reads, []);
  });

  test('outdated env restarts only during an in-place update (InPlaceUpdateReady False)', async () => {
    const old = { containers: [entry('c1', hashOf('v1'))] };
    assert.deepEqual((await buildMeta(inputs(pod('v2', 'containerd://c1', 'True', old), runtime('c1'), {}, old))).restart, []);
    assert.deepEqual((await buildMeta(inputs(pod('v2', 'containerd://c1', 'False', old), runtime('c1'), {}, old))).restart, ['containerd://c1']);
    assert.deepEqual((await buildMeta(inputs(pod('v1', 'containerd://c1', 'False', old), runtime('c1'), {}, old))).restart, [], 'up to date');
  });

  test('a container not running is not read; an unreadable env is retried, never taken as a change', async () => {
    const stopped = await buildMeta(inputs(pod('v2', 'containerd://c1', 'False'), runtime('c1', false), { X: 'v1' }));
    assert.deepEqual([stopped.set, stopped.restart], [{ containers: [entry('c1')] }, []]);
    const failing = { ...inputs(pod('v2', 'containerd://c1', 'False'), runtime('c1'), {}), readEnv: () => Promise.reject(new Error('exec failed')) };
    const out = await buildMeta(failing);
    assert.deepEqual([out.envUnread, out.restart, out.set.containers[0]!.hashes.extractedEnvFromMetadataHash], [true, [], undefined]);
  });

  test('gate off: no env read, no restart', async () => {
    const i = { ...inputs(pod('v2', 'containerd://c1', 'False'), runtime('c1'), { X: 'v1' }), envFromMetadata: false };
    const out = await buildMeta(i);
    assert.deepEqual([out.set, out.restart, i.reads], [{ containers: [entry('c1')] }, [], []]);
  });
});

describe('which pod events are looked at', () => {
  const current = { containers: [entry('c1', expectedEnvHash(app, { annotations: { x: 'v1' } }))] };
  test('Kruise pods only; a report out of date by container ID or expected env hash', () => {
    assert.equal(reportOutdated(undefined, pod('v1', 'containerd://c1', 'True', current), true), false);
    assert.equal(reportOutdated(undefined, pod('v1', 'containerd://c2', 'True', current), true), true, 'new container');
    assert.equal(reportOutdated(undefined, pod('v2', 'containerd://c1', 'True', current), true), true, 'metadata changed');
    assert.equal(reportOutdated(undefined, pod('v2', 'containerd://c1', 'True', current), false), false, 'gate off');
    assert.equal(reportOutdated(undefined, pod('v1', 'containerd://c2', 'True', current, 'apps/v1'), true), false, 'not a Kruise pod');
    assert.equal(reportOutdated(undefined, pod('v1', 'containerd://c1', 'True'), true), true, 'no report yet');
  });
  test('on add, a pod with no report at all waits for its next change', () => {
    assert.equal(worthAdding(pod('v1', 'containerd://c1', 'True'), true), false);
    assert.equal(worthAdding(pod('v1', 'containerd://c2', 'True', current), true), true);
  });
});
