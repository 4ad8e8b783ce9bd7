import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkContainersUpdateCompleted, isPodUpdateCompleted } from './completion.js';
import { markInPlaceUpdateReady, markInPlaceUpdateStarted, podCondition } from './conditions.js';
import { preparePodUpdate } from './patch-pod.js';
import { planRefresh } from './refresh.js';
import { readState } from './state.js';
import { runningPod } from './test-kit.js';
import type { InPlaceUpdateState, UpdateSpec } from './types.js';
import type { Pod } from '../../api/core/index.js';

const t0 = new Date('2024-05-01T10:00:00Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);
const spec = (over: Partial<UpdateSpec> = {}): UpdateSpec => ({
  revision: 'demo-new', containerImages: { app: 'nginx:1.26' }, containerRefMetadata: {}, containerResources: {},
  updateEnvFromMetadata: false, graceSeconds: 0, ...over,
});
const state = (last: InPlaceUpdateState['lastContainerStatuses']): InPlaceUpdateState => ({ revision: 'r', updateTimestamp: '', lastContainerStatuses: last });

function restarted(pod: Pod, name: string, image: string, imageID: string, ready = true): Pod {
  const out = structuredClone(pod);
  const s = out.status!.containerStatuses!.find((c) => c.name === name)!;
  Object.assign(s, { image, imageID, ready, restartCount: (s.restartCount ?? 0) + 1 });
  return out;
}

describe('completion', () => {
  const pod = runningPod([{ name: 'app', image: 'nginx' }]);
  test('imageID changed means done', () => {
    const p = restarted(pod, 'app', 'docker.io/library/nginx:latest', 'id-new');
    assert.deepEqual(checkContainersUpdateCompleted(p, state({ app: { imageID: 'id-old' } })), { completed: true });
  });
  test('same imageID: done only when the status image equals the spec image (untagged = :latest)', () => {
    assert.equal(checkContainersUpdateCompleted(restarted(pod, 'app', 'nginx:latest', 'id-old'), state({ app: { imageID: 'id-old' } })).completed, true);
    assert.deepEqual(checkContainersUpdateCompleted(restarted(pod, 'app', 'nginx:1.25', 'id-old'), state({ app: { imageID: 'id-old' } })), { completed: false, reason: 'container app imageID not changed' });
  });
  test('same imageID and the spec image in the kubelet\'s normalised form: done (§13)', () => {
    const p = runningPod([{ name: 'app', image: 'nginx:1.25-alpine' }]);
    assert.equal(checkContainersUpdateCompleted(restarted(p, 'app', 'docker.io/library/nginx:1.25-alpine', 'id-old'), state({ app: { imageID: 'id-old' } })).completed, true);
    assert.equal(checkContainersUpdateCompleted(restarted(p, 'app', 'docker.io/library/nginx:1.26-alpine', 'id-old'), state({ app: { imageID: 'id-old' } })).completed, false);
  });
  test('an update back to the running image, written before the kubelet restarted for the one before, completes', () => {
    // status as the kubelet writes it: the normalised reference, the imageID of that tag
    const running = runningPod([{ name: 'app', image: 'nginx:1.25-alpine' }]);
    Object.assign(running.status!.containerStatuses![0], { image: 'docker.io/library/nginx:1.25-alpine', imageID: 'id-1.25' });
    const toNew = preparePodUpdate(running, { spec: spec({ containerImages: { app: 'nginx:1.26-alpine' } }), now: t0 });
    // the kubelet has not restarted yet: the second update records the 1.25 imageID again
    const back = preparePodUpdate(toNew, { spec: spec({ revision: 'demo-old', containerImages: { app: 'nginx:1.25-alpine' } }), now: at(1) });
    assert.equal(readState(back)?.lastContainerStatuses.app.imageID, 'id-1.25');
    assert.equal(isPodUpdateCompleted(restarted(back, 'app', 'docker.io/library/nginx:1.25-alpine', 'id-1.25')), true);
  });
  test('a recorded container missing from status is not done', () => {
    assert.deepEqual(checkContainersUpdateCompleted(pod, state({ ghost: { imageID: 'x' } })), { completed: false, reason: 'not found status of container ghost' });
  });
  test('metadata-only update is done on the next look; grace and next batches are not', () => {
    const meta = preparePodUpdate(runningPod([{ name: 'app', image: 'a:1' }]), { spec: spec({ containerImages: {}, metaDataPatch: { labels: { x: 'y' } } }), now: t0 });
    assert.equal(isPodUpdateCompleted(meta), true);
    const grace = preparePodUpdate(runningPod([{ name: 'app', image: 'a:1' }]), { spec: spec({ graceSeconds: 5 }), now: t0 });
    assert.equal(isPodUpdateCompleted(grace), false);
    assert.equal(isPodUpdateCompleted(runningPod([{ name: 'app', image: 'a:1' }])), true, 'no state at all');
  });
  test('resources must be reported by status when resized', () => {
    const p = runningPod([{ name: 'app', image: 'a:1', resources: { requests: { cpu: '200m' } } }]);
    const s = { ...state({}), updateResources: true };
    assert.equal(checkContainersUpdateCompleted(p, s).completed, false);
    p.status!.containerStatuses![0].resources = { requests: { cpu: '0.2' } };
    assert.equal(checkContainersUpdateCompleted(p, s).completed, true);
  });
});

describe('conditions', () => {
  test('start: InPlaceUpdateReady False with reason, Ready False when ContainersReady is True', () => {
    const out = markInPlaceUpdateStarted(runningPod([{ name: 'app', image: 'a:1' }]), t0)!;
    assert.deepEqual(podCondition(out, 'InPlaceUpdateReady'), { type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate', lastTransitionTime: '2024-05-01T10:00:00Z' });
    const ready = podCondition(out, 'Ready')!;
    assert.deepEqual([ready.status, ready.reason, ready.message], ['False', 'ReadinessGatesNotReady', 'the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False']);
    assert.equal(markInPlaceUpdateStarted(out, at(1)), undefined, 'already set: no write');
  });
  test('start leaves Ready alone when containers are not ready', () => {
    const pod = runningPod([{ name: 'app', image: 'a:1' }]);
    pod.status!.conditions![1].status = 'False';
    assert.equal(podCondition(markInPlaceUpdateStarted(pod, t0)!, 'Ready')?.status, 'True');
  });
  test('ready: only when not already True with empty reason/message', () => {
    const pod = runningPod([{ name: 'app', image: 'a:1' }]);
    assert.equal(markInPlaceUpdateReady(pod, t0), undefined);
    pod.status!.conditions![0] = { type: 'InPlaceUpdateReady', status: 'True', reason: 'Stale' };
    assert.deepEqual(podCondition(markInPlaceUpdateReady(pod, t0)!, 'InPlaceUpdateReady'), { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' });
  });
});

describe('planRefresh', () => {
  const graced = () => preparePodUpdate(markInPlaceUpdateStarted(runningPod([{ name: 'app', image: 'nginx:1.25' }]), t0)!, { spec: spec({ graceSeconds: 10 }), now: t0 });

  test('grace: waits for the remainder rounded up to a second, then applies', () => {
    assert.deepEqual(planRefresh(graced(), new Date(t0.getTime() + 3400)), { kind: 'none', requeueAfterMs: 7000, reason: 'in grace period' });
    const plan = planRefresh(graced(), at(10));
    assert.equal(plan.kind, 'update');
    if (plan.kind !== 'update') return;
    assert.equal(plan.step, 'grace-applied');
    assert.equal(plan.pod.spec.containers[0].image, 'nginx:1.26');
    assert.equal(plan.pod.metadata.annotations!['apps.kruise.io/inplace-update-grace'], undefined);
    assert.deepEqual(readState(plan.pod)?.lastContainerStatuses, { app: { imageID: 'id-nginx:1.25' } });
  });

  test('grace superseded by a newer revision label is dropped without touching images', () => {
    const pod = graced();
    pod.metadata.labels!['controller-revision-hash'] = 'demo-newer';
    const plan = planRefresh(pod, at(1));
    assert.equal(plan.kind === 'update' && plan.step, 'grace-superseded');
    assert.equal(plan.kind === 'update' && plan.pod.spec.containers[0].image, 'nginx:1.25');
  });

  test('containers not done: nothing; done: condition back to True', () => {
    const updated = preparePodUpdate(markInPlaceUpdateStarted(runningPod([{ name: 'app', image: 'nginx:1.25' }]), t0)!, { spec: spec(), now: t0 });
    assert.equal(planRefresh(updated, at(1)).kind, 'none');
    const plan = planRefresh(restarted(updated, 'app', 'nginx:1.26', 'id-new'), at(2));
    assert.equal(plan.kind, 'updateStatus');
    assert.equal(plan.kind === 'updateStatus' && podCondition(plan.pod, 'InPlaceUpdateReady')?.status, 'True');
  });

  test('next batch starts once the previous batch is ready', () => {
    const prio = (name: string, p: string) => ({ name, image: `${name}:1`, env: [{ name: 'KRUISE_CONTAINER_BARRIER', valueFrom: { configMapKeyRef: { name: 'p-barrier', key: `p_${p}` } } }] });
    const first = preparePodUpdate(runningPod([prio('a', '2'), prio('b', '1')]), { spec: spec({ containerImages: { a: 'a:2', b: 'b:2' } }), now: t0 });
    assert.deepEqual(planRefresh(restarted(first, 'a', 'a:2', 'id-a2', false), at(1)), { kind: 'none', reason: 'waiting container a to be ready' });
    const plan = planRefresh(restarted(first, 'a', 'a:2', 'id-a2'), at(2));
    assert.equal(plan.kind === 'update' && plan.step, 'next-batch');
    if (plan.kind !== 'update') return;
    assert.deepEqual(plan.pod.spec.containers.map((c) => c.image), ['a:2', 'b:2']);
    const s = readState(plan.pod)!;
    assert.deepEqual([s.nextContainerImages, s.preCheckBeforeNext, s.containerBatchesRecord?.map((b) => b.containers)], [undefined, undefined, [['a'], ['b']]]);
    assert.deepEqual(Object.keys(s.lastContainerStatuses).sort(), ['a', 'b']);
    assert.equal(isPodUpdateCompleted(plan.pod), false, 'b not restarted yet');
  });
});
