/**
 * The DaemonSet controller on an embedded control plane, pods driven by hand: a pod per eligible
 * node (skipping a tainted one) pinned by node affinity, a node added and one removed later, status
 * counts, and a rolling update one node at a time.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ControllerRevisions, DaemonSets, Nodes } from '../../../api/resource-type.js';
import { setRootLogger } from '../../../machinery/log.js';
import { targetNodeName } from '../../../machinery/scheduling/index.js';
import { createNode, eventually, listPods, setPodState, settle, sleeper, controllerEnvForSuite } from '../../../testing/fake-clock-controller-env.js';
import { setupDaemonSetController } from './index.js';
import { hashLabel } from './types.js';
import type { Pod, ControllerRevision, DaemonSet } from '../../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));
const ns = 'kube-system';

describe('daemonset controller', () => {
  const env = controllerEnvForSuite((mgr) => setupDaemonSetController(mgr));
  before(async () => {
    await createNode(env.client, 'node-a');
    await createNode(env.client, 'node-b');
    await createNode(env.client, 'node-gpu', { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] });
  });

  const live = async () => (await listPods(env.client, ns, 'app=agent')).filter((p) => !p.metadata.deletionTimestamp);
  const byNode = async () => new Map((await live()).map((p) => [targetNodeName(p.spec)!, p]));
  const nodesWithPods = async () => [...(await byNode()).keys()].sort();
  const getDs = () => env.client.get<DaemonSet>(DaemonSets, ns, 'agent');
  const readyAll = async (filter: (p: Pod) => boolean = () => true) => {
    for (const pod of (await live()).filter(filter)) {
      if (!pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) await setPodState(env.client, env.clock, ns, pod.metadata.name!, 'Ready');
    }
  };

  test('runs one pod per eligible node, skips the tainted node, pins pods by node affinity', async () => {
    await env.client.create<DaemonSet>(DaemonSets, {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: sleeper } } },
    });
    await eventually(env.clock, async () => (await nodesWithPods()).join() === 'node-a,node-b', 'pods on node-a and node-b');
    await settle(150);
    assert.deepEqual(await nodesWithPods(), ['node-a', 'node-b'], 'none on the tainted node, no duplicates');
    const pod = (await byNode()).get('node-a')!;
    assert.equal(pod.spec?.nodeName, undefined, 'left for the scheduler to bind');
    const tolerations = (pod.spec?.tolerations as { key: string; effect: string }[]).map((t) => `${t.key}:${t.effect}`);
    assert.ok(tolerations.includes('node.kubernetes.io/not-ready:NoExecute'));
    assert.ok(tolerations.includes('node.kubernetes.io/unschedulable:NoSchedule'));
    const revisions = (await env.client.list<ControllerRevision>(ControllerRevisions, { namespace: ns })).items;
    assert.equal(revisions.length, 1);
    assert.equal(pod.metadata.labels?.[hashLabel], revisions[0]!.metadata.labels?.[hashLabel]);
    assert.equal(revisions[0]!.metadata.name, `agent-${pod.metadata.labels?.[hashLabel]}`);
    await readyAll();
    const ds = await eventually(env.clock, async () => ((await getDs()).status?.numberReady === 2 ? getDs() : undefined), 'numberReady 2');
    assert.deepEqual([ds.status?.desiredNumberScheduled, ds.status?.currentNumberScheduled, ds.status?.numberAvailable, ds.status?.numberUnavailable,
      ds.status?.updatedNumberScheduled, ds.status?.numberMisscheduled, ds.status?.observedGeneration], [2, 2, 2, 0, 2, 0, ds.metadata.generation]);
  });

  test('follows nodes joining and leaving', async () => {
    await createNode(env.client, 'node-c');
    await eventually(env.clock, async () => (await nodesWithPods()).includes('node-c'), 'a pod for node-c');
    await env.client.delete(Nodes, undefined, 'node-b');
    await eventually(env.clock, async () => (await nodesWithPods()).join() === 'node-a,node-c', 'node-b pod gone');
    await env.client.patch(Nodes, undefined, 'node-gpu', 'merge', { spec: { taints: null } });
    await eventually(env.clock, async () => (await nodesWithPods()).join() === 'node-a,node-c,node-gpu', 'untainted node gets a pod');
    await readyAll();
    await eventually(env.clock, async () => (await getDs()).status?.numberAvailable === 3, 'three available');
  });

  test('rolling update replaces one node at a time (maxUnavailable 1)', async () => {
    const oldHash = (await live())[0]!.metadata.labels?.[hashLabel];
    await env.client.patch(DaemonSets, ns, 'agent', 'merge', { spec: { template: { metadata: { labels: { app: 'agent', v: '2' } } } } });
    const newHash = await eventually(env.clock, async () => {
      const revisions = (await env.client.list<ControllerRevision>(ControllerRevisions, { namespace: ns })).items;
      return revisions.length === 2 ? revisions.find((r) => r.revision === 2)?.metadata.labels?.[hashLabel] : undefined;
    }, 'the second revision');
    for (let step = 1; step <= 3; step++) {
      const pods = await eventually(env.clock, async () => {
        const all = await live();
        return all.filter((p) => p.metadata.labels?.[hashLabel] === newHash).length === step && all.length === 3 ? all : undefined;
      }, `${step} node(s) updated`);
      assert.equal(pods.filter((p) => p.metadata.labels?.[hashLabel] === oldHash).length, 3 - step);
      await settle(100);
      assert.equal((await live()).filter((p) => p.metadata.labels?.[hashLabel] === newHash).length, step, 'waits for the new pod to be available');
      await readyAll((p) => p.metadata.labels?.[hashLabel] === newHash);
    }
    // the status write that counts the last pod updated may come before the one that sees it Ready
    const ds = await eventually(env.clock, async () => {
      const d = await getDs();
      return d.status?.updatedNumberScheduled === 3 && d.status.numberAvailable === 3 ? d : undefined;
    }, 'all updated and available');
    assert.equal(ds.status?.numberUnavailable ?? 0, 0);
  });
});
