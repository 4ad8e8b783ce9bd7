/**
 * The node lifecycle controller on an embedded control plane with a fake clock: the test plays the
 * kubelet (renewing the node's Lease, posting node status) and moves time forward by hand.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Events, Leases, Nodes, Pods } from '../../../api/resource-type.js';
import { startTestControlPlane } from '../../../testing/control-plane.js';
import { FakeClock } from '../../../machinery/clock.js';
import { isPodReady } from '../../../control/podutil/index.js';
import { eventually, markPodReady, startControllerTestEnv, type ControllerTestEnv } from '../../../testing/controller-env.js';
import { nodeLeaseNamespace, setupNodeLifecycleController } from './index.js';
import { rfc3339, microTime } from '../../../machinery/time.js';
import type { Lease, Node, Pod } from '../../../api/core/index.js';

describe('node lifecycle controller', () => {
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  let env: ControllerTestEnv;
  let lease: Lease;
  before(async () => {
    env = await startControllerTestEnv(await startTestControlPlane(), (mgr) => setupNodeLifecycleController(mgr, { gracePeriodMs: 40_000 }), { clock });
  });
  after(async () => { await env.stop(); });

  const getNode = () => env.client.get<Node>(Nodes, undefined, 'n1');
  const ready = async () => (await getNode()).status?.conditions?.find((c) => c.type === 'Ready');
  const taints = async () => ((await getNode()).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);
  const leaseCache = () => env.mgr.informerFor<Lease>(Leases, { namespace: nodeLeaseNamespace });

  async function postStatus(): Promise<void> {
    const node = await getNode();
    const at = rfc3339(clock.now());
    const conditions = [{ type: 'Ready', status: 'True' as const, reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: at, lastTransitionTime: at }];
    await env.client.updateStatus(Nodes, { ...node, status: { ...node.status, conditions } });
  }

  /** Renews the lease and waits until the controller's cache has it (so it is observed at this time). */
  async function renew(): Promise<void> {
    lease = await env.client.update(Leases, { ...lease, spec: { ...lease.spec, renewTime: microTime(clock.now()) } });
    await eventually('lease in cache', () => leaseCache().get(nodeLeaseNamespace, 'n1')?.metadata.resourceVersion === lease.metadata.resourceVersion);
  }

  test('a node renewing its lease stays Ready', async () => {
    await env.client.create(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    await postStatus();
    lease = await env.client.create<Lease>(Leases, {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n1', namespace: nodeLeaseNamespace },
      spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: microTime(clock.now()) },
    });
    await eventually('lease in cache', () => leaseCache().get(nodeLeaseNamespace, 'n1') !== undefined);
    const pod = await env.client.create<Pod>(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'default' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } });
    await markPodReady(env.client, pod, { at: clock.now() });
    for (let i = 0; i < 3; i++) {
      await clock.advanceAsync(30_000, 5_000);
      await renew();
    }
    await clock.advanceAsync(30_000, 5_000); // 30 s of silence: still within the 40 s grace
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await ready())?.status, 'True');
    assert.deepEqual(await taints(), []);
  });

  test('a lease not renewed for the grace period makes the node Unknown, tainted, its pods not Ready', async () => {
    await clock.advanceAsync(11_000, 1_000);
    const cond = await eventually('Ready Unknown', async () => { const c = await ready(); return c?.status === 'Unknown' ? c : undefined; });
    assert.equal(cond.reason, 'NodeStatusUnknown');
    assert.equal(cond.message, 'Kubelet stopped posting node status.');
    const since = Date.parse(cond.lastTransitionTime!);
    assert.ok(since >= Date.parse(lease.spec!.renewTime!) + 40_000 && since <= clock.now(), `transition at ${cond.lastTransitionTime}`);
    await eventually('taints', async () => (await taints()).length === 2);
    assert.deepEqual(await taints(), ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
    const pod = await eventually('pod not ready', async () => { const p = await env.client.get<Pod>(Pods, 'default', 'p1'); return isPodReady(p) ? undefined : p; });
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'False');
    const events = await eventually('events', async () => {
      const list = (await env.client.list(Events, { namespace: 'default' })).items.map((e) => `${e.involvedObject && (e.involvedObject as { kind: string }).kind} ${e.type} ${e.reason}: ${e.message}`);
      return list.length >= 2 ? list : undefined;
    });
    assert.deepEqual(events.sort(), ['Node Normal NodeNotReady: Node n1 status is now: NodeNotReady', 'Pod Warning NodeNotReady: Node is not ready']);
  });

  test('a pod reported Ready on the unreachable node is marked not Ready again', async () => {
    await markPodReady(env.client, await env.client.get<Pod>(Pods, 'default', 'p1'), { at: clock.now() });
    await eventually('pod not ready again', async () => !isPodReady(await env.client.get<Pod>(Pods, 'default', 'p1')));
  });

  test('when the kubelet is back and posts Ready, the taints go', async () => {
    await renew();
    await postStatus();
    await eventually('taints removed', async () => (await taints()).length === 0);
    assert.equal((await ready())?.status, 'True');
    await clock.advanceAsync(30_000, 5_000);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await ready())?.status, 'True', 'freshly heard from: no relapse within the grace period');
  });
});
