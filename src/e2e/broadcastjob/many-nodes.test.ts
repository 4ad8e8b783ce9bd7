/**
 * A BroadcastJob over 100 simulated nodes while nodes join, are drained (cordoned, their pods
 * evicted) and are deleted mid-run: no node ever runs two of its pods at once, every node eligible
 * at the end has exactly one pod, the job completes, and its counters equal what the pods show.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/core/index.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { targetNodeName } from '../../machinery/scheduling/index.js';
import { bcj, counters, jobPods, ns, phaseIs, running, startBcjEnv, waitJob } from './fixtures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nodeOf = (p: Pod) => targetNodeName(p.spec) ?? '';

test('100 nodes, nodes added, drained and deleted mid-run: one pod per eligible node, counters match the pods', async () => {
  const w = await startBcjEnv({ nodes: 100 });
  try {
    await w.client.create(BroadcastJobs, bcj('wide', { parallelism: 30 }, 'sleep 2'));
    let broken: string | undefined;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const byNode = new Map<string, string[]>();
        for (const p of running(await jobPods(w, 'wide'))) byNode.set(nodeOf(p), [...(byNode.get(nodeOf(p)) ?? []), p.metadata.name!]);
        for (const [node, names] of byNode) if (names.length > 1) broken ??= `${node} runs ${names.join(', ')}`;
        await sleep(50);
      }
    })();
    await sleep(1500);
    for (let i = 100; i < 105; i++) await w.nodes().addNode(`kruise-node-${i}`);
    const drained = ['kruise-node-90', 'kruise-node-91', 'kruise-node-92', 'kruise-node-93', 'kruise-node-94'];
    for (const node of drained) {
      await w.client.patch<Node>(Nodes, undefined, node, 'merge', { spec: { unschedulable: true } });
      for (const p of (await jobPods(w, 'wide')).filter((pod) => nodeOf(pod) === node)) await w.client.delete(Pods, ns, p.metadata.name!).catch(() => undefined);
    }
    await sleep(1000);
    const deleted = ['kruise-node-95', 'kruise-node-96', 'kruise-node-97', 'kruise-node-98', 'kruise-node-99'];
    for (const node of deleted) await w.nodes().removeNode(node);
    const job = await waitJob(w, 'wide', phaseIs('completed'), 'completed', 120_000);
    watching = false;
    await watcher;
    assert.equal(broken, undefined);

    const eligible = new Set((await w.client.list<Node>(Nodes)).items.filter((n) => !n.spec?.unschedulable).map((n) => n.metadata.name!));
    assert.equal(eligible.size, 95, '100 + 5 added − 5 drained − 5 deleted');
    const pods = await jobPods(w, 'wide');
    const live = pods.filter((p) => !p.metadata.deletionTimestamp);
    for (const node of eligible) {
      const mine = live.filter((p) => nodeOf(p) === node);
      assert.equal(mine.length, 1, `${node} has ${mine.length} pods`);
      assert.equal(mine[0]!.status?.phase, 'Succeeded', node);
    }
    for (const node of drained) assert.equal(running(pods).filter((p) => nodeOf(p) === node).length, 0, `${node} drained`);
    const phaseCount = (phase: string) => live.filter((p) => p.status?.phase === phase).length;
    assert.deepEqual(counters(job), {
      desired: eligible.size, active: running(pods).length, succeeded: phaseCount('Succeeded'), failed: phaseCount('Failed'), phase: 'completed',
    });
    assert.ok(job.status!.succeeded! >= 95);
  } finally {
    await w.stop();
  }
});
