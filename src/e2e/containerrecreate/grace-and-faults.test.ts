/** CRR end to end: the unready drain, a pod deleted mid-request, and a daemon restarted mid-request. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { Pods } from '../../api/resource-type.js';
import { createInProcessClient } from '../../client/index.js';
import { startNodeDaemons } from '../../daemon/node-daemons.js';
import { eventually, holds, type WorkloadEnv } from '../../testing/workload-env.js';
import { completed, containerStatus, createCRR, crr, getCRR, getPod, ns, restarts, runningPod, startCRREnv, stateOf } from './fixtures.js';

const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

describe('ContainerRecreateRequest: drain and faults', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCRREnv(); });
  after(async () => { await w.stop(); });

  test('scenario 8: with the KruisePodReady gate the pod is held not-ready for the grace, then released', async () => {
    await runningPod(w, 'p-gate', (p) => { p.spec!.readinessGates = [{ conditionType: 'KruisePodReady' }]; });
    await eventually('pod Ready', async () => condition(await getPod(w, 'p-gate'), 'Ready')?.status === 'True');
    await createCRR(w, crr('crr-gate', 'p-gate', { strategy: { unreadyGracePeriodSeconds: 3 } }));
    const held = await eventually('pod held not-ready', async () => {
      const pod = await getPod(w, 'p-gate');
      return condition(pod, 'Ready')?.status === 'False' && restarts(pod, 'app') === 0 ? pod : undefined;
    });
    assert.deepEqual(JSON.parse(condition(held, 'KruisePodReady')!.message!), [{ userAgent: 'ContainerRecreateRequest', key: `${ns}/crr-gate` }]);
    const holding = await getCRR(w, 'crr-gate');
    assert.ok(holding.metadata.finalizers?.includes('crr.apps.kruise.io/unready-acquired'));
    const graceFrom = Date.parse(holding.status!.conditions!.find((c) => c.type === 'PreRecreateGrace')!.lastTransitionTime);
    const done = await completed(w, 'crr-gate');
    assert.equal(stateOf(done, 'app')?.phase, 'Succeeded');
    const stoppedAt = Date.parse(containerStatus(await getPod(w, 'p-gate'), 'app')!.lastState!.terminated!.finishedAt!);
    assert.ok(stoppedAt - graceFrom >= 3000, `app stopped ${stoppedAt - graceFrom} ms after the drain began`);
    await eventually('pod Ready again and finalizer gone', async () => {
      const [pod, request] = [await getPod(w, 'p-gate'), await getCRR(w, 'crr-gate')];
      return condition(pod, 'Ready')?.status === 'True' && condition(pod, 'KruisePodReady')?.status === 'True' && !request.metadata.finalizers?.length;
    });
    assert.equal(restarts(await getPod(w, 'p-gate'), 'app'), 1);
  });

  test('a pod deleted mid-request completes the request with "pod has gone"', async () => {
    await runningPod(w, 'p-gone');
    await createCRR(w, crr('crr-gone', 'p-gone', { strategy: { unreadyGracePeriodSeconds: 60 } }));
    await eventually('daemon took the request', async () => (await getCRR(w, 'crr-gone')).status?.phase === 'Recreating');
    await w.client.delete(Pods, ns, 'p-gone');
    const done = await completed(w, 'crr-gone');
    assert.equal(done.status!.message, 'pod has gone');
  });

  test('a daemon restarted mid-request finishes it without stopping any container twice', async () => {
    const pod = await runningPod(w, 'p-restart');
    const node = pod.spec!.nodeName!;
    await createCRR(w, crr('crr-restart', 'p-restart', { containers: [{ name: 'app' }, { name: 'side' }], strategy: { orderedRecreate: true, minStartedSeconds: 2 } }));
    await eventually('app stopped by the daemon', async () => stateOf(await getCRR(w, 'crr-restart'), 'app')?.isKilled);
    const old = w.daemons()!.daemons.find((d) => d.nodeName === node)!;
    await old.stop();
    await eventually('app back', async () => restarts(await getPod(w, 'p-restart'), 'app') === 1);
    assert.notEqual((await getCRR(w, 'crr-restart')).status?.phase, 'Completed');
    const gates = () => true;
    const fresh = await startNodeDaemons(createInProcessClient(w.env.plane.handler, undefined, 'kruise-daemon'),
      { nodeNames: () => [node], criSocket: (n) => w.nodes().criSocket(n) }, gates);
    try {
      const done = await completed(w, 'crr-restart', 30_000);
      assert.deepEqual(done.status!.containerRecreateStates!.map((s) => s.phase), ['Succeeded', 'Succeeded']);
      await holds('each container restarted exactly once', async () => {
        const now = await getPod(w, 'p-restart');
        return restarts(now, 'app') === 1 && restarts(now, 'side') === 1 ? undefined : `restarts app ${restarts(now, 'app')}, side ${restarts(now, 'side')}`;
      }, 1000);
      assert.equal((await getPod(w, 'p-restart')).metadata.uid, pod.metadata.uid);
    } finally {
      await fresh.stop();
    }
  });
});
