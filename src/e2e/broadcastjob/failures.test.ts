/**
 * BroadcastJob failure policies (docs/design/jobs.md §3): restartLimit 0 fails the job on the first
 * restart of an OnFailure pod, restartLimit 3 after the fourth; Pause stops creating pods while a
 * failed pod exists, in status only (spec.paused stays false).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import { bcj, counters, eventsAbout, getJob, jobPods, phaseIs, startBcjEnv, waitJob } from './fixtures.js';

const restarts = (pods: Awaited<ReturnType<typeof jobPods>>) => pods.map((p) => p.status?.containerStatuses?.[0]?.restartCount ?? 0);

describe('BroadcastJob failure policies', () => {
  let w: WorkloadEnv;
  // a short crash-loop back-off: four restarts in about a second
  before(async () => { w = await startBcjEnv({ nodes: 1, crashLoopBackoff: { initialMs: 100, maxMs: 400 } }); });
  after(async () => { await w.stop(); });

  test('8a: OnFailure, exit 1, default restartLimit 0: the first restart fails the job and deletes the pod', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-crash', { podSpec: { restartPolicy: 'OnFailure' } }, 'exit 1'));
    const job = await waitJob(w, 'bcj-crash', phaseIs('failed'), 'failed');
    assert.deepEqual(counters(job), { desired: 1, active: 0, succeeded: 0, failed: 1, phase: 'failed' });
    assert.equal(job.status!.conditions![0]!.message, 'failure policy is FailurePolicyTypeFailFast and failed pod is found');
    assert.ok((await eventsAbout(w, 'bcj-crash')).some((e) => e.reason === 'failed pod is found'));
  });

  test('8b: restartLimit 3: the job fails only once the pod restarted a fourth time', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-limit', { podSpec: { restartPolicy: 'OnFailure' }, failurePolicy: { restartLimit: 3 } }, 'exit 1'));
    // while the job has not failed, the pod never shows more than 3 restarts; it does show some
    let restartsWhileRunning = 0;
    await eventually('bcj-limit failed', async () => {
      const [job, pods] = await Promise.all([getJob(w, 'bcj-limit'), jobPods(w, 'bcj-limit')]);
      if (job.status?.phase === 'failed') return true;
      if (job.status?.failed === 0) restartsWhileRunning = Math.max(restartsWhileRunning, ...restarts(pods), 0);
      return false;
    }, 30_000);
    assert.ok(restartsWhileRunning >= 1 && restartsWhileRunning <= 3, `restarts seen while running: ${restartsWhileRunning}`);
    assert.equal((await getJob(w, 'bcj-limit')).status!.failed, 1);
  });

  test('9: failurePolicy Pause: phase paused, no new pod while the failed pod exists, spec.paused stays false', async () => {
    await w.nodes().addNode('kruise-node-1');
    await w.client.create(BroadcastJobs, bcj('bcj-pause', { parallelism: 1, failurePolicy: { type: 'Pause' } }, 'exit 1'));
    await waitJob(w, 'bcj-pause', phaseIs('paused'), 'paused');
    await new Promise((r) => setTimeout(r, 1500));
    const job = await getJob(w, 'bcj-pause');
    assert.deepEqual(counters(job), { desired: 2, active: 0, succeeded: 0, failed: 1, phase: 'paused' });
    assert.equal(job.spec!.paused, undefined);
    assert.equal((await jobPods(w, 'bcj-pause')).length, 1, 'no second pod');
    assert.ok((await eventsAbout(w, 'bcj-pause')).some((e) => e.reason === 'Paused' && e.message === 'job is paused, due to failed pod'));
  });
});
