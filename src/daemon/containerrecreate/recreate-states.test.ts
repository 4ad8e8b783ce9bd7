import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import type { RuntimeContainer } from './container-view.js';
import { currentStates, nextStep, type RecreateState } from './recreate-states.js';

const now = Date.parse('2024-05-01T10:00:10Z');
const request = (strategy: NonNullable<ContainerRecreateRequest['spec']>['strategy'] = {}, states?: RecreateState[], snapshot?: { name: string; containerID: string; ready: boolean; restartCount: number }[]): ContainerRecreateRequest => ({
  metadata: { name: 'r', namespace: 'ns' },
  spec: { podName: 'p', strategy, containers: [{ name: 'a', statusContext: { containerID: 'containerd://a0', restartCount: 0 } }, { name: 'b', statusContext: { containerID: 'containerd://b0', restartCount: 3 } }] },
  status: { phase: 'Recreating', containerRecreateStates: states, containerStatusSnapshot: snapshot },
});
const running = (name: string, id: string, restartCount = 0, startedAt = now - 5000): RuntimeContainer =>
  ({ name, id, containerID: `containerd://${id}`, podSandboxId: 's', state: 'CONTAINER_RUNNING', startedAt, restartCount });
const view = (...cs: RuntimeContainer[]) => new Map(cs.map((c) => [c.name, c]));

describe('currentStates', () => {
  test('untouched containers are Pending; missing ones say so; exited ones are Recreating', () => {
    assert.deepEqual(currentStates(request(), view(running('a', 'a0')), now), [
      { name: 'a', phase: 'Pending' }, { name: 'b', phase: 'Pending', message: 'not found container on Node' },
    ]);
    const exited = { ...running('a', 'a0'), state: 'CONTAINER_EXITED' as const };
    assert.equal(currentStates(request(), view(exited, running('b', 'b0', 3)), now)[0]!.phase, 'Recreating');
  });

  test('a replaced container succeeds once the snapshot shows it ready for minStartedSeconds', () => {
    const snap = [{ name: 'a', containerID: 'containerd://a1', ready: true, restartCount: 1 }];
    const c = view(running('a', 'a1', 1, now - 3000), running('b', 'b0', 3));
    assert.equal(currentStates(request({ minStartedSeconds: 2 }, undefined, snap), c, now)[0]!.phase, 'Succeeded');
    assert.equal(currentStates(request({ minStartedSeconds: 5 }, undefined, snap), c, now)[0]!.phase, 'Recreating', 'not started long enough');
    assert.equal(currentStates(request({}, undefined, [{ ...snap[0]!, ready: false }]), c, now)[0]!.phase, 'Recreating', 'not ready');
    assert.equal(currentStates(request({}, undefined, undefined), c, now)[0]!.phase, 'Recreating', 'no snapshot yet');
  });

  test('forceRecreate holds a replaced container Pending until this request stopped it; finished states stay', () => {
    const c = view(running('a', 'a1', 1), running('b', 'b0', 3));
    assert.equal(currentStates(request({ forceRecreate: true }), c, now)[0]!.phase, 'Pending');
    const killed = currentStates(request({ forceRecreate: true }, [{ name: 'a', phase: 'Recreating', isKilled: true }]), c, now)[0]!;
    assert.deepEqual(killed, { name: 'a', phase: 'Recreating', isKilled: true });
    const failed = { name: 'b', phase: 'Failed' as const, message: 'kill container error: x' };
    assert.deepEqual(currentStates(request({}, [failed]), c, now)[1], failed);
  });
});

describe('nextStep', () => {
  const st = (...phases: RecreateState['phase'][]) => phases.map((phase, i): RecreateState => ({ name: 'ab'[i]!, phase }));
  test('one stop per pass; ordered waits for Recreating; Failed ends the request under Fail only', () => {
    assert.deepEqual(nextStep(request(), st('Pending', 'Pending')), { kind: 'kill', index: 0 });
    assert.deepEqual(nextStep(request(), st('Recreating', 'Pending')), { kind: 'kill', index: 1 });
    assert.deepEqual(nextStep(request({ orderedRecreate: true }), st('Recreating', 'Pending')), { kind: 'wait' });
    assert.deepEqual(nextStep(request({ failurePolicy: 'Fail' }), st('Failed', 'Pending')), { kind: 'fail' });
    assert.deepEqual(nextStep(request({ failurePolicy: 'Ignore' }), st('Failed', 'Pending')), { kind: 'kill', index: 1 });
    assert.deepEqual(nextStep(request({ failurePolicy: 'Ignore' }), st('Failed', 'Succeeded')), { kind: 'done' });
    const states = st('Recreating', 'Succeeded');
    assert.deepEqual(nextStep(request(), states), { kind: 'wait' });
    assert.equal(states[0]!.isKilled, true, 'a Recreating container counts as stopped');
  });
});
