/**
 * Scheduling throughput in-process: nodes in three zones, pods created while the scheduler is
 * stopped, then the time from start() until every pod is bound. Reports pods/s (wall and per
 * CPU-second) as a diagnostic; asserts only that every pod is bound and the spread is even.
 * Larger runs: SCHED_NODES=1000 SCHED_PODS=10000 SCHED_OWNERS=10 node --import tsx --test <this file>.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, OwnerReference } from '../../api/meta.js';
import { ConfigMaps, Pods } from '../../api/resource-type.js';
import { realClock } from '../../machinery/clock.js';
import { addNode, startEnv } from './scheduler-testkit.test.js';
import { makeNode, makePod } from './test-objects.js';
import type { Pod } from '../../api/core/index.js';

const NODES = Number(process.env.SCHED_NODES ?? 100);
const PODS = Number(process.env.SCHED_PODS ?? 1000);
const OWNERS = Number(process.env.SCHED_OWNERS ?? 0);

test(`throughput: ${PODS} pods on ${NODES} nodes`, { timeout: 600_000 }, async (t) => {
  const e = await startEnv({ clock: realClock, seed: undefined });
  try {
    for (let i = 0; i < NODES; i++) {
      await addNode(e.client, makeNode(`node-${i}`, { cpu: '16', memory: '32Gi', labels: { 'topology.kubernetes.io/zone': `zone-${i % 3}` } }));
    }
    const owners: OwnerReference[] = [];
    for (let i = 0; i < OWNERS; i++) {
      // Real owner objects, or the garbage collector deletes the pods.
      const o = await e.client.create<KObject>(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `owner-${i}`, namespace: 'default' } });
      owners.push({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name!, uid: o.metadata.uid!, controller: true });
    }
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < PODS; i++) {
      const pod = makePod(`p-${i}`, { cpu: '100m', memory: '128Mi' });
      if (owners.length) pod.metadata.ownerReferences = [owners[i % owners.length]];
      batch.push(e.client.create(Pods, pod));
      if (batch.length >= 50) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);

    const started = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    await e.scheduler.start();
    while (e.scheduler.stats().scheduled < PODS) await new Promise((r) => setTimeout(r, 10));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    t.diagnostic(`${PODS} pods on ${NODES} nodes: ${seconds.toFixed(2)} s, ${(PODS / seconds).toFixed(0)} pods/s, `
      + `${(PODS / ((cpu.user + cpu.system) / 1e6)).toFixed(0)} pods per CPU-second (includes the initial list and the API server's work)`);

    const list = await e.client.list<Pod>(Pods, { namespace: 'default' });
    const perNode = new Map<string, number>();
    for (const p of list.items) perNode.set(p.spec?.nodeName ?? '', (perNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
    assert.equal(perNode.has(''), false, 'every pod is bound');
    assert.equal(perNode.size, NODES);
    const counts = [...perNode.values()];
    assert.ok(Math.max(...counts) - Math.min(...counts) <= Math.max(4, PODS / NODES / 2), `uneven spread: ${Math.min(...counts)}..${Math.max(...counts)}`);
  } finally {
    await e.stop();
  }
});
