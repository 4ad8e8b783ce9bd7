import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import { repoDigest } from '../../daemon/cri/image-ref.js';
import { computePodActions } from './pod-actions.js';
import { podPhase } from './pod-phase.js';
import { computePodStatus, statusPatch, statusUpToDate } from './pod-status.js';
import type { ContainerInfo, PodView } from './pod-view.js';
import type { Pod } from '../../api/core/index.js';

const T0 = Date.parse('2024-01-01T00:00:00Z');

function pod(extra: Partial<Pod['spec']> = {}, status?: Pod['status']): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
    spec: { nodeName: 'n0', containers: [{ name: 'app', image: 'nginx:1.25' }], ...extra }, status,
  };
}

function cri(name: string, state: CriContainerStatus['state'], o: { attempt?: number; exitCode?: number; image?: string; id?: string } = {}): CriContainerStatus {
  const image = o.image ?? 'nginx:1.25';
  return {
    id: o.id ?? `${name}-${o.attempt ?? 0}`.padEnd(64, '0'), metadata: { name, attempt: o.attempt ?? 0 }, state,
    createdAt: T0 * 1e6, startedAt: state === 'CONTAINER_CREATED' ? 0 : T0 * 1e6, finishedAt: state === 'CONTAINER_EXITED' ? (T0 + 5000) * 1e6 : 0,
    exitCode: o.exitCode ?? 0, image: { image }, imageRef: repoDigest(image), reason: state === 'CONTAINER_EXITED' ? (o.exitCode ? 'Error' : 'Completed') : '',
    message: '', labels: {}, annotations: {},
  };
}

function view(p: Pod, containers: Record<string, Partial<ContainerInfo>>, now = T0 + 10_000): PodView {
  return {
    pod: p, now, hostIP: '10.0.0.2', sandbox: { id: 's', ip: '10.244.0.2', ready: true }, sandboxBusy: false,
    containers: new Map(Object.entries(containers).map(([k, v]) => [k, { busy: false, ready: false, started: v.latest?.state === 'CONTAINER_RUNNING', ...v }])),
    runtimeName: 'containerd', crashBackoff: { initialMs: 10_000, maxMs: 300_000 },
  };
}

const cond = (s: ReturnType<typeof computePodStatus>, type: string) => s.conditions.find((c) => c.type === type)!;

describe('computePodStatus', () => {
  test('a running, ready container: Running, Ready, full containerStatus', () => {
    const s = computePodStatus(view(pod(), { app: { latest: cri('app', 'CONTAINER_RUNNING'), ready: true } }));
    assert.equal(s.phase, 'Running');
    assert.deepEqual([s.podIP, s.hostIP, s.podIPs, s.hostIPs], ['10.244.0.2', '10.0.0.2', [{ ip: '10.244.0.2' }], [{ ip: '10.0.0.2' }]]);
    for (const t of ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready', 'PodScheduled']) assert.equal(cond(s, t).status, 'True', t);
    const [c] = s.containerStatuses;
    assert.equal(c.image, 'docker.io/library/nginx:1.25');
    assert.match(c.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(c.containerID!, /^containerd:\/\/app-0/);
    assert.deepEqual(c.state, { running: { startedAt: '2024-01-01T00:00:00Z' } });
    assert.deepEqual([c.ready, c.started, c.restartCount, c.lastState], [true, true, 0, {}]);
  });

  test('nothing created yet: Pending, waiting ContainerCreating, not ready with upstream messages', () => {
    const s = computePodStatus(view(pod(), {}));
    assert.equal(s.phase, 'Pending');
    assert.deepEqual(s.containerStatuses[0].state, { waiting: { reason: 'ContainerCreating' } });
    assert.deepEqual([cond(s, 'Ready').reason, cond(s, 'Ready').message], ['ContainersNotReady', 'containers with unready status: [app]']);
  });

  test('readiness gates keep Ready False until their condition is True', () => {
    const gated = (gate?: 'True' | 'False') => pod({ readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
      gate ? { conditions: [{ type: 'InPlaceUpdateReady', status: gate }] } : undefined);
    const running = { app: { latest: cri('app', 'CONTAINER_RUNNING'), ready: true } };
    const missing = computePodStatus(view(gated(), running));
    assert.equal(cond(missing, 'ContainersReady').status, 'True');
    assert.deepEqual([cond(missing, 'Ready').status, cond(missing, 'Ready').reason], ['False', 'ReadinessGatesNotReady']);
    assert.equal(cond(missing, 'Ready').message, 'corresponding condition of pod readiness gate "InPlaceUpdateReady" does not exist.');
    assert.match(cond(computePodStatus(view(gated('False'), running)), 'Ready').message!, /is not "True", but False/);
    assert.equal(cond(computePodStatus(view(gated('True'), running)), 'Ready').status, 'True');
  });

  test('an in-place restarted container shows restartCount, new id and lastState', () => {
    const latest = cri('app', 'CONTAINER_RUNNING', { attempt: 1, image: 'nginx:1.26', id: 'b'.repeat(64) });
    const previous = cri('app', 'CONTAINER_EXITED', { image: 'nginx:1.25', id: 'a'.repeat(64) });
    const [c] = computePodStatus(view(pod({ containers: [{ name: 'app', image: 'nginx:1.26' }] }), { app: { latest, previous, ready: true } })).containerStatuses;
    assert.deepEqual([c.restartCount, c.containerID, c.image], [1, `containerd://${'b'.repeat(64)}`, 'docker.io/library/nginx:1.26']);
    assert.equal(c.lastState?.terminated?.exitCode, 0);
    assert.equal(c.lastState?.terminated?.containerID, `containerd://${'a'.repeat(64)}`);
  });

  test('transition times survive unchanged conditions; statusUpToDate and the patch', () => {
    const first = computePodStatus(view(pod(), { app: { latest: cri('app', 'CONTAINER_RUNNING'), ready: true } }));
    const later = computePodStatus(view(pod({}, { ...first }), { app: { latest: cri('app', 'CONTAINER_RUNNING'), ready: true } }, T0 + 99_000));
    assert.deepEqual(later, first);
    assert.ok(statusUpToDate({ ...first, conditions: [...first.conditions, { type: 'Custom', status: 'True' }] }, later));
    assert.ok(!statusUpToDate({ ...first, phase: 'Pending' }, later));
    assert.deepEqual(statusPatch('u1', first).metadata, { uid: 'u1' });
  });
});

describe('podPhase and actions', () => {
  test('restartPolicy decides the terminal phase', () => {
    const exited = (code: number) => ({ app: { latest: cri('app', 'CONTAINER_EXITED', { exitCode: code }) } });
    assert.equal(podPhase(view(pod({ restartPolicy: 'Never' }), exited(0))), 'Succeeded');
    assert.equal(podPhase(view(pod({ restartPolicy: 'Never' }), exited(1))), 'Failed');
    assert.equal(podPhase(view(pod({ restartPolicy: 'OnFailure' }), exited(1))), 'Running');
    assert.equal(podPhase(view(pod({ restartPolicy: 'Always' }), exited(0))), 'Running');
    assert.equal(podPhase(view(pod({}, { phase: 'Failed' }), { app: { latest: cri('app', 'CONTAINER_RUNNING') } })), 'Failed');
  });

  test('init containers start one at a time, in order, before the app', () => {
    const p = pod({ initContainers: [{ name: 'i1', image: 'busybox' }, { name: 'i2', image: 'busybox' }] });
    const start = (v: PodView) => computePodActions(v).actions.map((a) => (a.type === 'start' ? a.container.name : a.type));
    assert.deepEqual(start(view(p, {})), ['i1']);
    assert.deepEqual(start(view(p, { i1: { latest: cri('i1', 'CONTAINER_RUNNING', { image: 'busybox' }) } })), []);
    assert.deepEqual(start(view(p, { i1: { latest: cri('i1', 'CONTAINER_EXITED', { image: 'busybox' }) } })), ['i2']);
    const both = { i1: { latest: cri('i1', 'CONTAINER_EXITED', { image: 'busybox' }) }, i2: { latest: cri('i2', 'CONTAINER_EXITED', { image: 'busybox' }) } };
    assert.deepEqual(start(view(p, both)), ['app']);
    assert.equal(computePodStatus(view(p, { i1: { latest: cri('i1', 'CONTAINER_EXITED', { image: 'busybox' }) } })).containerStatuses[0].state?.waiting?.reason, 'PodInitializing');
  });

  test('an image change kills the running container and starts the next attempt; crash restarts back off', () => {
    const p = pod({ containers: [{ name: 'app', image: 'nginx:1.26' }], terminationGracePeriodSeconds: 5 });
    const [a] = computePodActions(view(p, { app: { latest: cri('app', 'CONTAINER_RUNNING') } })).actions;
    assert.deepEqual(a.type === 'kill' && [a.graceSeconds, a.restart, a.message], [5, true, 'Container app definition changed, will be restarted']);
    const killed = { app: { latest: cri('app', 'CONTAINER_EXITED'), restartRequested: true } };
    assert.deepEqual(computePodActions(view(p, killed)).actions.map((x) => x.type === 'start' && x.attempt), [1]);
    const crashed = { app: { latest: cri('app', 'CONTAINER_EXITED', { attempt: 1, exitCode: 1, image: 'nginx:1.26' }) } };
    const plan = computePodActions(view(p, crashed, T0 + 6000));
    assert.deepEqual([plan.actions, plan.wakeAt], [[], T0 + 15_000]);
    assert.equal(computePodStatus(view(p, crashed, T0 + 6000)).containerStatuses[0].state?.waiting?.reason, 'CrashLoopBackOff');
    assert.equal(computePodActions(view(p, crashed, T0 + 15_000)).actions[0].type, 'start');
  });
});
