import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneSetRevisionLabels } from './calculate-spec.js';
import { preparePodUpdate } from './patch-pod.js';
import { parseGrace, readGrace, readState, serializeGrace, writeState } from './state.js';
import { runningPod } from './test-kit.js';
import type { UpdateSpec } from './types.js';
import type { Container } from '../../api/core/index.js';

const now = new Date('2024-05-01T10:00:00.250Z');
const containers: Container[] = [{ name: 'app', image: 'nginx:1.25' }, { name: 'side', image: 'busybox:1.36' }];
const spec = (over: Partial<UpdateSpec> = {}): UpdateSpec => ({
  revision: 'demo-new', containerImages: { app: 'nginx:1.26' }, containerRefMetadata: {}, containerResources: {},
  updateEnvFromMetadata: false, graceSeconds: 0, ...over,
});

describe('preparePodUpdate', () => {
  test('applies images now and writes the state annotation JSON', () => {
    const pod = runningPod(containers, { annotations: { 'inplace-update-state': '{"revision":"legacy"}', 'apps.kruise.io/inplace-update-grace': '{}' } });
    const out = preparePodUpdate(pod, { spec: spec({ metaDataPatch: { labels: { tier: 'api', app: null } } }), now });
    assert.equal(out.spec.containers[0].image, 'nginx:1.26');
    assert.equal(out.spec.containers[1].image, 'busybox:1.36');
    assert.deepEqual(out.metadata.labels, { 'controller-revision-hash': 'demo-new', tier: 'api' });
    assert.deepEqual(JSON.parse(out.metadata.annotations!['apps.kruise.io/inplace-update-state']), {
      revision: 'demo-new', updateTimestamp: '2024-05-01T10:00:00Z',
      lastContainerStatuses: { app: { imageID: 'id-nginx:1.25' } }, updateImages: true,
      containerBatchesRecord: [{ timestamp: '2024-05-01T10:00:00Z', containers: ['app'] }],
    });
    assert.equal(out.metadata.annotations!['inplace-update-state'], undefined, 'legacy state key dropped');
    assert.equal(out.metadata.annotations!['apps.kruise.io/inplace-update-grace'], undefined, 'grace removed');
    assert.equal(pod.spec.containers[0].image, 'nginx:1.25', 'input untouched');
  });

  test('CloneSet labels and hooks', () => {
    const out = preparePodUpdate(runningPod(containers), {
      spec: spec(), now,
      options: { revisionLabels: cloneSetRevisionLabels, hooks: [(p) => { p.metadata.labels!['lifecycle.apps.kruise.io/state'] = 'Updating'; }] },
    });
    assert.equal(out.metadata.labels!['pod-template-hash'], 'new');
    assert.equal(out.metadata.labels!['lifecycle.apps.kruise.io/state'], 'Updating');
  });

  test('with grace seconds the images wait and the pending spec is stored', () => {
    const out = preparePodUpdate(runningPod(containers), { spec: spec({ graceSeconds: 10, metaDataPatch: { labels: { tier: 'api' } } }), now });
    assert.equal(out.spec.containers[0].image, 'nginx:1.25');
    assert.equal(out.metadata.labels!.tier, undefined);
    const raw = JSON.parse(out.metadata.annotations!['apps.kruise.io/inplace-update-grace']);
    assert.deepEqual(Object.keys(raw), ['revision', 'containerImages', 'metaDataPatch', 'graceSeconds']);
    assert.equal(Buffer.from(raw.metaDataPatch, 'base64').toString(), '{"metadata":{"labels":{"tier":"api"}}}');
    assert.deepEqual(readGrace(out)?.metaDataPatch, { labels: { tier: 'api' } });
    assert.deepEqual(readState(out)?.lastContainerStatuses, {});
  });

  test('container priorities split the update into batches', () => {
    // the barrier env the launch-priority step adds is what carries the priority (here KRUISE_CONTAINER_PRIORITY says the opposite and is ignored)
    const prio = (name: string, image: string, p: number): Container => ({
      name, image, env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: String(11 - p) }, { name: 'KRUISE_CONTAINER_BARRIER', valueFrom: { configMapKeyRef: { name: 'p-barrier', key: `p_${p}` } } }],
    });
    const pod = runningPod([prio('a', 'a:1', 10), prio('b', 'b:1', 1), { name: 'c', image: 'c:1' }]);
    const out = preparePodUpdate(pod, { spec: spec({ containerImages: { a: 'a:2', b: 'b:2', c: 'c:2' } }), now });
    assert.deepEqual(out.spec.containers.map((c) => c.image), ['a:2', 'b:1', 'c:2']);
    const state = readState(out)!;
    assert.deepEqual(state.nextContainerImages, { b: 'b:2' });
    assert.deepEqual(state.preCheckBeforeNext, { containersRequiredReady: ['a', 'c'] });
  });
});

describe('annotation (de)serialisation', () => {
  test('legacy keys are read', () => {
    const pod = runningPod(containers, { annotations: { 'inplace-update-state': '{"revision":"r1","updateTimestamp":"2024-01-01T00:00:00Z","lastContainerStatuses":null}', 'inplace-update-grace': '{"revision":"r1","graceSeconds":3}' } });
    assert.deepEqual(readState(pod), { revision: 'r1', updateTimestamp: '2024-01-01T00:00:00Z', lastContainerStatuses: {} });
    assert.equal(readGrace(pod)?.graceSeconds, 3);
    writeState(pod, readState(pod)!);
    assert.deepEqual(Object.keys(pod.metadata.annotations!).sort(), ['apps.kruise.io/inplace-update-state', 'inplace-update-grace']);
  });

  test('grace spec round-trips and omits empty fields', () => {
    const s = spec({ graceSeconds: 0, containerImages: {} });
    assert.equal(serializeGrace(s), '{"revision":"demo-new"}');
    const full = spec({ graceSeconds: 4, metaDataPatch: { annotations: { a: null } }, containerRefMetadata: { app: { labels: { k: 'v' } } }, updateEnvFromMetadata: true });
    assert.deepEqual(parseGrace(serializeGrace(full)), full);
  });

  test('malformed JSON throws', () => {
    assert.throws(() => readState(runningPod(containers, { annotations: { 'apps.kruise.io/inplace-update-state': '{' } })), SyntaxError);
  });
});
