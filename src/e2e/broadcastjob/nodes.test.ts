/**
 * BroadcastJob and node changes (docs/design/jobs.md §3): a tainted node is not desired and gets
 * no pod until the taint goes; a Never job covers a node that joins after its pods finished.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../api/core/index.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Nodes } from '../../api/resource-type.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import { bcj, counters, jobPods, phaseIs, startBcjEnv, waitJob } from './fixtures.js';

describe('BroadcastJob and nodes', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startBcjEnv(); });
  after(async () => { await w.stop(); });

  const nodesOf = async (name: string) => (await jobPods(w, name)).map((p) => p.spec.nodeName).sort();

  test('4: a node tainted k=v:NoSchedule is not desired; removing the taint gives it a pod (completionPolicy Never)', async () => {
    await w.client.patch<Node>(Nodes, undefined, 'kruise-node-2', 'merge', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } });
    await w.client.create(BroadcastJobs, bcj('bcj-taint', { completionPolicy: { type: 'Never' } }));
    const job = await waitJob(w, 'bcj-taint', (j) => j.status?.succeeded === 2, 'two pods succeeded');
    assert.deepEqual(counters(job), { desired: 2, active: 0, succeeded: 2, failed: 0, phase: 'running' });
    assert.deepEqual(await nodesOf('bcj-taint'), ['kruise-node-0', 'kruise-node-1']);
    await w.client.patch<Node>(Nodes, undefined, 'kruise-node-2', 'merge', { spec: { taints: null } });
    const covered = await waitJob(w, 'bcj-taint', (j) => j.status?.succeeded === 3, 'three pods succeeded');
    assert.deepEqual(counters(covered), { desired: 3, active: 0, succeeded: 3, failed: 0, phase: 'running' });
    assert.deepEqual(await nodesOf('bcj-taint'), ['kruise-node-0', 'kruise-node-1', 'kruise-node-2']);
  });

  test('5: completionPolicy Never: a node added after the pods finished gets a pod; the job keeps running', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-never', { completionPolicy: { type: 'Never' } }));
    await waitJob(w, 'bcj-never', (j) => j.status?.succeeded === 3, 'three pods succeeded');
    await w.nodes().addNode('kruise-node-3');
    await eventually('a pod on the new node', async () => (await nodesOf('bcj-never')).includes('kruise-node-3'), 20_000);
    const job = await waitJob(w, 'bcj-never', (j) => j.status?.succeeded === 4, 'four pods succeeded');
    assert.deepEqual(counters(job), { desired: 4, active: 0, succeeded: 4, failed: 0, phase: 'running' });
    assert.equal(job.status!.conditions, undefined, 'a Never job never completes');
    assert.ok(await waitJob(w, 'bcj-never', phaseIs('running'), 'still running'));
  });
});
