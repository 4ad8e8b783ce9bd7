/** Env from metadata in the in-place engine (docs/design/container-meta.md §4): the gate, the state flag, completion on the daemon's meta. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeContainersMetaAnnotation } from '../../api/kruise/workloads/labels.js';
import { expectedEnvHash, formatRuntimeMetaSet } from '../containermeta/index.js';
import { calculateInPlaceUpdateSpec } from './calculate-spec.js';
import { checkPodUpdateCompleted } from './completion.js';
import { markInPlaceUpdateStarted } from './conditions.js';
import { preparePodUpdate } from './patch-pod.js';
import { planRefresh } from './refresh.js';
import { readState } from './state.js';
import { revision, runningPod, template } from './test-kit.js';
import type { Container, Pod } from '../../api/core/index.js';

const t0 = new Date('2024-05-01T10:00:00Z');
const app: Container = { name: 'app', image: 'nginx:1.25', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['x']" } } }] };
const from = revision('demo-old', template([app], { app: 'demo' }, { x: 'v1' }));
const to = revision('demo-new', template([app], { app: 'demo' }, { x: 'v2' }));

function withMeta(pod: Pod, containerID: string, envHash: number): Pod {
  const out = structuredClone(pod);
  out.status!.containerStatuses![0]!.containerID = containerID;
  const set = { containers: [{ name: 'app', containerID, restartCount: 0, hashes: { plainHash: 1, plainHashWithoutResources: 0, extractedEnvFromMetadataHash: envHash } }] };
  out.metadata.annotations = { ...out.metadata.annotations, [RuntimeContainersMetaAnnotation]: formatRuntimeMetaSet(set) };
  return out;
}

describe('env from metadata', () => {
  test('gate off: the annotation is a plain metadata patch, no restart asked for', () => {
    const spec = calculateInPlaceUpdateSpec(from, to)!;
    assert.equal(spec.updateEnvFromMetadata, false);
    assert.deepEqual(spec.metaDataPatch, { annotations: { x: 'v2' } });
  });

  test('gate on: the change moves to the container, the state says updateEnvFromMetadata, and completion waits for the daemon', () => {
    const spec = calculateInPlaceUpdateSpec(from, to, { envFromMetadata: true })!;
    assert.deepEqual([spec.updateEnvFromMetadata, spec.containerRefMetadata, spec.metaDataPatch], [true, { app: { annotations: { x: 'v2' } } }, undefined]);
    const old = runningPod([app], { annotations: { x: 'v1' } });
    const oldHash = expectedEnvHash(app, old.metadata);
    const started = preparePodUpdate(withMeta(markInPlaceUpdateStarted(old, t0)!, 'containerd://c1', oldHash), { spec, now: t0 });
    assert.equal(started.metadata.annotations?.x, 'v2');
    assert.equal(readState(started)?.updateEnvFromMetadata, true);
    const newHash = expectedEnvHash(app, started.metadata);
    assert.notEqual(newHash, oldHash);

    const noMeta = structuredClone(started);
    delete noMeta.metadata.annotations![RuntimeContainersMetaAnnotation];
    assert.deepEqual(checkPodUpdateCompleted(noMeta), { completed: false, reason: 'waiting for all containers hash consistent, but runtime-container-meta not found' });
    assert.deepEqual(checkPodUpdateCompleted(started), { completed: false, reason: 'waiting for all containers hash consistent' }, 'old container still runs');
    assert.equal(planRefresh(started, t0).kind, 'none', 'InPlaceUpdateReady stays False');
    assert.equal(checkPodUpdateCompleted(withMeta(started, 'containerd://c1', newHash)).completed, true, 'meta and status agree on the container');
    const restartedNotReported = withMeta(started, 'containerd://c2', oldHash);
    assert.equal(checkPodUpdateCompleted(restartedNotReported).completed, false, 'new container, meta not yet read');
    const done = withMeta(started, 'containerd://c2', newHash);
    assert.equal(checkPodUpdateCompleted(done).completed, true);
    assert.equal(planRefresh(done, t0).kind, 'updateStatus', 'then InPlaceUpdateReady goes back to True');
  });
});
