/** CRR end to end: ordered recreation, restartPolicy Never, containers restarted meanwhile, two requests for one pod. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  completed, containerStatus, crashContainer, createCRR, crr, getCRR, getPod, recordStatuses, restarts, runningPod, startCRREnv, stateOf,
  writtenBefore,
} from './fixtures.js';

describe('ContainerRecreateRequest: strategies', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCRREnv(); });
  after(async () => { await w.stop(); });

  test('scenario 4: with orderedRecreate, side is stopped only once app is Succeeded', async () => {
    await runningPod(w, 'p-ord');
    const watch = recordStatuses(w, 'crr-ord');
    await createCRR(w, crr('crr-ord', 'p-ord', { containers: [{ name: 'app' }, { name: 'side' }], strategy: { orderedRecreate: true, minStartedSeconds: 1 } }));
    const done = await completed(w, 'crr-ord');
    watch.stop();
    assert.deepEqual(done.status!.containerRecreateStates!.map((s) => s.phase), ['Succeeded', 'Succeeded']);
    const sideTouched = watch.seen.filter((v) => stateOf(v, 'side')?.isKilled || stateOf(v, 'side')?.phase === 'Recreating');
    assert.ok(sideTouched.length > 0, 'side was recreated');
    for (const v of sideTouched) assert.equal(stateOf(v, 'app')?.phase, 'Succeeded', `side touched at rv ${v.metadata.resourceVersion} before app succeeded`);
    const pod = await getPod(w, 'p-ord');
    assert.deepEqual([restarts(pod, 'app'), restarts(pod, 'side')], [1, 1]);
    const started = (name: string) => Date.parse(containerStatus(pod, name)!.state!.running!.startedAt!);
    assert.ok(started('side') - started('app') >= 1000, 'side restarted at least minStartedSeconds after app');
  });

  test('scenario 6: restartPolicy Never: app is stopped, never comes back, and the deadline completes the request', async () => {
    await runningPod(w, 'p-never', (p) => { p.spec!.restartPolicy = 'Never'; });
    await createCRR(w, crr('crr-never', 'p-never', { activeDeadlineSeconds: 4 }));
    await eventually('app stopped', async () => containerStatus(await getPod(w, 'p-never'), 'app')?.state?.terminated);
    const done = await completed(w, 'crr-never');
    assert.equal(done.status!.message, 'recreating has exceeded the activeDeadlineSeconds');
    assert.deepEqual(stateOf(done, 'app'), { name: 'app', phase: 'Failed', message: 'recreating has exceeded the activeDeadlineSeconds', isKilled: true });
    const took = Date.parse(done.status!.completionTime!) - Date.parse(done.metadata.creationTimestamp!);
    assert.ok(took >= 4000, `completed at the deadline, not before (${took} ms)`);
    const pod = await getPod(w, 'p-never');
    assert.equal(restarts(pod, 'app'), 0);
    assert.equal(containerStatus(pod, 'side')?.state?.running !== undefined, true);
  });

  for (const forceRecreate of [false, true]) {
    test(`scenario 7: app restarted by the kubelet before the daemon acts: ${forceRecreate ? 'forceRecreate stops the new container again' : 'no further stop'}`, async () => {
      const name = `p-meanwhile-${forceRecreate}`;
      const pod = await runningPod(w, name);
      // the unready grace keeps the daemon waiting while the container restarts on its own
      await createCRR(w, crr(`crr-${name}`, name, { strategy: { unreadyGracePeriodSeconds: 3, forceRecreate } }));
      await eventually('drain started', async () => (await getCRR(w, `crr-${name}`)).status?.conditions?.some((c) => c.type === 'PreRecreateGrace'));
      await crashContainer(w, pod, 'app');
      await eventually('kubelet restarted app', async () => restarts(await getPod(w, name), 'app') === 1);
      const done = await completed(w, `crr-${name}`, 30_000);
      assert.equal(stateOf(done, 'app')?.phase, 'Succeeded');
      const expected = forceRecreate ? 2 : 1;
      assert.equal(restarts(await getPod(w, name), 'app'), expected);
    });
  }

  test('scenario 9: a second request for the pod waits Pending until the first completes', async () => {
    const pod = await runningPod(w, 'p-two');
    const second = recordStatuses(w, 'crr-two-b');
    const first = recordStatuses(w, 'crr-two-a');
    await createCRR(w, crr('crr-two-a', 'p-two', { strategy: { minStartedSeconds: 1 } }));
    await createCRR(w, crr('crr-two-b', 'p-two'));
    const doneB = await completed(w, 'crr-two-b');
    second.stop();
    first.stop();
    assert.ok(second.seen.some((v) => v.status?.phase === 'Pending'), 'the second request was Pending');
    const aCompleted = first.seen.find((v) => v.status?.phase === 'Completed')!;
    const bRecreating = second.seen.find((v) => v.status?.phase === 'Recreating')!;
    assert.ok(writtenBefore(aCompleted, bRecreating), 'the second request started only after the first completed');
    // the container the second request named was already replaced by the first: no second stop
    assert.equal(stateOf(doneB, 'app')?.phase, 'Succeeded');
    assert.equal(restarts(await getPod(w, 'p-two'), 'app'), 1);
    assert.equal(pod.metadata.uid, (await getPod(w, 'p-two')).metadata.uid);
  });
});
