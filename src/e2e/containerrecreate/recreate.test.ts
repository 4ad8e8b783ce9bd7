/** CRR end to end: one container restarted in place, its record, and what admission refuses. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContainerRecreateRequests, kruiseResourceType } from '../../api/kruise/resource-types.js';
import { containerRecreateRequestKind } from '../../api/kruise/ops/index.js';
import { Pods } from '../../api/resource-type.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import { completed, containerStatus, createCRR, crr, getCRR, getPod, ns, recordStatuses, restarts, runningPod, startCRREnv, stateOf, type CRR } from './fixtures.js';

describe('ContainerRecreateRequest: recreate one container', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCRREnv(); });
  after(async () => { await w.stop(); });

  test('scenario 1: app restarts in place (same pod UID and IP, restartCount+1), side untouched, request completes and goes inactive', async () => {
    const pod = await runningPod(w, 'p1');
    const created = await createCRR(w, crr('crr-1', 'p1', { strategy: { minStartedSeconds: 2 }, ttlSecondsAfterFinished: 60 }));
    assert.deepEqual(created.metadata.labels, {
      'crr.apps.kruise.io/active': 'true', 'crr.apps.kruise.io/node-name': pod.spec!.nodeName,
      'crr.apps.kruise.io/pod-name': 'p1', 'crr.apps.kruise.io/pod-uid': pod.metadata.uid,
    });
    assert.deepEqual(created.spec!.containers[0]!.statusContext, { containerID: containerStatus(pod, 'app')!.containerID, restartCount: 0 });
    assert.equal(created.spec!.strategy!.failurePolicy, 'Fail');
    assert.equal(created.spec!.strategy!.terminationGracePeriodSeconds, 5, 'the pod\'s grace period');
    const done = await completed(w, 'crr-1');
    assert.equal(done.status!.message ?? '', '');
    assert.deepEqual(stateOf(done, 'app'), { name: 'app', phase: 'Succeeded', isKilled: true });
    const took = Date.parse(done.status!.completionTime!) - Date.parse(done.metadata.creationTimestamp!);
    assert.ok(took >= 2000, `minStartedSeconds holds completion back (took ${took} ms)`);
    const after = await getPod(w, 'p1');
    assert.equal(after.metadata.uid, pod.metadata.uid);
    assert.equal(after.status!.podIP, pod.status!.podIP);
    assert.equal(restarts(after, 'app'), 1);
    assert.notEqual(containerStatus(after, 'app')!.containerID, containerStatus(pod, 'app')!.containerID);
    assert.equal(restarts(after, 'side'), 0);
    assert.equal(containerStatus(after, 'side')!.containerID, containerStatus(pod, 'side')!.containerID);
    const snapshot = done.status!.containerStatusSnapshot!.find((s) => s.name === 'app')!;
    assert.deepEqual([snapshot.containerID, snapshot.ready, snapshot.restartCount], [containerStatus(after, 'app')!.containerID, true, 1]);
    await eventually('active label removed', async () => !(await getCRR(w, 'crr-1')).metadata.labels?.['crr.apps.kruise.io/active']);
  });

  test('ttlSecondsAfterFinished deletes the finished request', async () => {
    await runningPod(w, 'p-ttl');
    // watched, not polled: a poll can miss the second between completion and deletion on a busy machine
    const statuses = recordStatuses(w, 'crr-ttl');
    try {
      await createCRR(w, crr('crr-ttl', 'p-ttl', { ttlSecondsAfterFinished: 1 }));
      await eventually('request deleted', async () => {
        const left = await w.client.list(ContainerRecreateRequests, { namespace: ns, fieldSelector: 'metadata.name=crr-ttl' });
        return left.items.length === 0;
      });
    } finally {
      statuses.stop();
    }
    assert.ok(statuses.seen.some((c) => c.status?.phase === 'Completed'), 'completed before it was deleted');
    assert.equal(restarts(await getPod(w, 'p-ttl'), 'app'), 1);
  });

  test('scenario 2: a v1alpha1 manifest is accepted, stored and read as v1beta1', async () => {
    await runningPod(w, 'p-alpha');
    const alpha = kruiseResourceType(containerRecreateRequestKind, 'v1alpha1');
    await w.client.create(alpha, { ...crr('crr-alpha', 'p-alpha'), apiVersion: 'apps.kruise.io/v1alpha1' });
    const done = await completed(w, 'crr-alpha');
    assert.equal(done.apiVersion, 'apps.kruise.io/v1beta1');
    assert.equal(stateOf(done, 'app')?.phase, 'Succeeded');
    const asAlpha = await w.client.get<CRR>(alpha, ns, 'crr-alpha');
    assert.equal(asAlpha.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.equal(asAlpha.status?.phase, 'Completed');
  });

  test('scenario 3 and 5: the spec is immutable; pending pods and unknown containers are refused at admission', async () => {
    await runningPod(w, 'p-bad');
    const first = await createCRR(w, crr('crr-imm', 'p-bad'));
    await assert.rejects(w.client.update(ContainerRecreateRequests, { ...first, spec: { ...first.spec!, activeDeadlineSeconds: 30 } }),
      /spec of ContainerRecreateRequest is immutable/);
    await assert.rejects(createCRR(w, crr('crr-nope', 'p-bad', { containers: [{ name: 'nope' }] })), /container nope not found in Pod/);
    await assert.rejects(createCRR(w, crr('crr-nopod', 'p-missing')), /no found Pod named p-missing/);
    await w.client.create(Pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p-pending', namespace: ns },
      spec: { nodeSelector: { nowhere: 'true' }, containers: [{ name: 'app', image: 'nginx' }] },
    });
    await assert.rejects(createCRR(w, crr('crr-pending', 'p-pending')), /not allowed to recreate containers in a pending Pod/);
  });
});
