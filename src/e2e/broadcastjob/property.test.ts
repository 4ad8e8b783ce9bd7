/**
 * Property test of the BroadcastJob controller: a Never job over 8 nodes while a seeded random
 * sequence cordons and uncordons nodes, taints and untaints them, deletes job pods, adds and removes
 * nodes, and crashes the manager. Watched on every pod event: no node ever runs two active pods of the
 * job. At the end: every eligible node runs exactly one pod, and status counts what the pods show.
 * failurePolicy Continue: the pod GC marks the pods of a removed node Failed, which fails a FailFast job.
 * Replay a failure with BCJ_PROPERTY_SEED=<seed>.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/core/index.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { targetNodeName } from '../../machinery/scheduling/index.js';
import { eventually } from '../../testing/workload-env.js';
import { bcj, getJob, jobPods, ns, running, startBcjEnv } from './fixtures.js';

const seed = Number(process.env.BCJ_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const STEPS = 30;

/** mulberry32: a small seeded generator, so a failing sequence can be replayed. */
function random(s: number): () => number {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test(`BroadcastJob under random node changes and manager crashes (seed ${seed})`, { timeout: 150_000 }, async (t) => {
  const w = await startBcjEnv({ nodes: 8 });
  const rnd = random(seed);
  const pick = <T>(list: T[]): T | undefined => list[Math.floor(rnd() * list.length)];
  const log: string[] = [];
  const activeOn = new Map<string, Set<string>>();
  let broken: string | undefined;
  const watch = w.client.watch<Pod>(Pods, { namespace: ns }, {
    onEvent: (e) => {
      const pod = e.object;
      const node = targetNodeName(pod.spec) ?? '';
      for (const set of activeOn.values()) set.delete(pod.metadata.name!);
      const active = e.type !== 'DELETED' && running([pod]).length === 1;
      if (!active) return;
      const set = activeOn.get(node) ?? new Set<string>();
      set.add(pod.metadata.name!);
      activeOn.set(node, set);
      if (set.size > 1) broken ??= `${node} runs ${[...set].join(', ')} after: ${log.join('; ')}`;
    },
    onClose: () => undefined,
  });
  try {
    await w.client.create(BroadcastJobs, bcj('prop', { completionPolicy: { type: 'Never' }, failurePolicy: { type: 'Continue' } }, 'sleep 3600'));
    let added = 8;
    for (let step = 0; step < STEPS; step++) {
      const nodes = (await w.client.list<Node>(Nodes)).items;
      const node = pick(nodes)?.metadata.name;
      const op = Math.floor(rnd() * 8);
      if (!node) continue;
      if (op === 0) await w.client.patch(Nodes, undefined, node, 'merge', { spec: { unschedulable: true } });
      else if (op === 1) await w.client.patch(Nodes, undefined, node, 'merge', { spec: { unschedulable: null } });
      else if (op === 2) await w.client.patch(Nodes, undefined, node, 'merge', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } });
      else if (op === 3) await w.client.patch(Nodes, undefined, node, 'merge', { spec: { taints: null } });
      else if (op === 4) {
        const pod = pick(await jobPods(w, 'prop'));
        if (pod) await w.client.delete(Pods, ns, pod.metadata.name!).catch(() => undefined);
      } else if (op === 5) await w.nodes().addNode(`kruise-node-${added++}`);
      else if (op === 6 && nodes.length > 4) await w.nodes().removeNode(node);
      else if (op === 7) await w.restartManager({ crash: true });
      log.push(`${['cordon', 'uncordon', 'taint', 'untaint', 'delete a pod', 'add a node', 'remove', 'crash the manager'][op]} ${op === 5 ? `kruise-node-${added - 1}` : node}`);
      await new Promise((r) => setTimeout(r, 50 + rnd() * 300));
    }
    t.diagnostic(`seed ${seed}: ${log.join('; ')}`);
    const eligible = async () => new Set((await w.client.list<Node>(Nodes)).items.filter((n) => !n.spec?.unschedulable && !n.spec?.taints?.some((x) => x.key === 'k')).map((n) => n.metadata.name!));
    const state = async () => JSON.stringify({
      eligible: [...await eligible()], status: (await getJob(w, 'prop')).status,
      pods: (await jobPods(w, 'prop')).map((p) => [p.metadata.name, targetNodeName(p.spec), p.status?.phase, Boolean(p.metadata.deletionTimestamp)]),
    });
    await eventually(`seed ${seed}: one running pod per eligible node`, async () => {
      const want = await eligible();
      const pods = running(await jobPods(w, 'prop')).filter((p) => want.has(targetNodeName(p.spec) ?? ''));
      const nodesWithPods = new Set(pods.map((p) => targetNodeName(p.spec)));
      return pods.length === want.size && nodesWithPods.size === want.size && pods.every((p) => p.status?.phase === 'Running');
    }, 60_000).catch(async (e: unknown) => { throw new Error(`${(e as Error).message}: ${await state()}`); });
    await eventually(`seed ${seed}: status counts the pods`, async () => {
      const [job, pods, want] = [await getJob(w, 'prop'), await jobPods(w, 'prop'), await eligible()];
      return job.status?.desired === want.size && job.status.active === running(pods).length && job.status.phase === 'running';
    }, 30_000);
    assert.equal(broken, undefined, `seed ${seed}`);
  } finally {
    watch.stop();
    await w.stop();
  }
});
