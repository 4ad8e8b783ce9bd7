/**
 * BroadcastJob acceptance scenarios on the embedded cluster (docs/design/jobs.md §3): one pod per
 * node to completion, the v1alpha1 manifest, parallelism, the active deadline, the TTL, and the
 * manifests the webhook refuses.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { StatusError } from '../../machinery/errors.js';
import { targetNodeName } from '../../machinery/scheduling/index.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import { bcj, counters, type BroadcastJob, eventsAbout, getJob, jobPods, ns, phaseIs, running, startBcjEnv, waitJob } from './fixtures.js';

describe('BroadcastJob scenarios', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startBcjEnv(); });
  after(async () => { await w.stop(); });

  test('1: one pod per node, labelled and owned by the job; completed once they all succeed', async () => {
    const created = await w.client.create(BroadcastJobs, bcj('bcj-ok'));
    const job = await waitJob(w, 'bcj-ok', phaseIs('completed'), 'completed');
    assert.deepEqual(counters(job), { desired: 3, active: 0, succeeded: 3, failed: 0, phase: 'completed' });
    const complete = job.status!.conditions!.find((c) => c.type === 'Complete')!;
    assert.equal(complete.status, 'True');
    assert.equal(complete.message, 'Job completed, 3 pods succeeded, 0 pods failed');
    assert.ok(job.status!.startTime && job.status!.completionTime);
    const pods = await jobPods(w, 'bcj-ok');
    assert.deepEqual(pods.map((p) => p.spec.nodeName).sort(), ['kruise-node-0', 'kruise-node-1', 'kruise-node-2']);
    for (const pod of pods) {
      assert.equal(pod.metadata.labels!['broadcastjob-controller-uid'], created.metadata!.uid);
      assert.ok(pod.metadata.name!.startsWith('bcj-ok-'));
      assert.equal(targetNodeName({ affinity: pod.spec.affinity }), pod.spec.nodeName, 'pinned by node affinity');
      assert.deepEqual(pod.metadata.ownerReferences!.map((r) => [r.kind, r.uid, r.controller, r.blockOwnerDeletion]), [['BroadcastJob', created.metadata!.uid, true, true]]);
    }
    assert.ok((await eventsAbout(w, 'bcj-ok')).some((e) => e.reason === 'JobComplete' && e.message === 'Job t/bcj-ok is completed, 3 pods succeeded, 0 pods failed'));
  });

  test('2: a v1alpha1 manifest runs too; v1beta1 reads the same spec with the defaults; kubectl get bcj prints the columns', async () => {
    await w.client.create({ ...BroadcastJobs, version: 'v1alpha1' }, bcj('bcj-alpha', {}, 'exit 0', 'apps.kruise.io/v1alpha1'));
    await waitJob(w, 'bcj-alpha', phaseIs('completed'), 'completed');
    const alpha = await w.client.get<BroadcastJob>({ ...BroadcastJobs, version: 'v1alpha1' }, ns, 'bcj-alpha');
    const beta = await getJob(w, 'bcj-alpha');
    assert.equal(alpha.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.deepEqual(alpha.spec, beta.spec);
    assert.equal(beta.spec!.parallelism, 2147483647);
    assert.deepEqual(beta.spec!.failurePolicy, { type: 'FailFast' });
    assert.deepEqual(beta.spec!.completionPolicy, { type: 'Always' });
    const out = (await w.env.kubectl(['get', 'bcj', 'bcj-alpha', '-n', ns])).stdout;
    assert.match(out.split('\n')[0]!, /^NAME\s+DESIRED\s+ACTIVE\s+SUCCEEDED\s+FAILED\s+AGE/);
    assert.match(out.split('\n')[1]!, /^bcj-alpha\s+3\s+0\s+3\s+0\s+/);
  });

  test('3: parallelism 1 never runs two pods at once; three pods in all', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-one', { parallelism: 1 }, 'sleep 1'));
    let most = 0;
    await eventually('bcj-one completed', async () => {
      most = Math.max(most, running(await jobPods(w, 'bcj-one')).length);
      return (await getJob(w, 'bcj-one')).status?.phase === 'completed';
    }, 30_000);
    assert.equal(most, 1);
    assert.equal((await jobPods(w, 'bcj-one')).length, 3);
  });

  test('6: activeDeadlineSeconds passes: pods deleted and counted failed, phase failed, condition Failed', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-late', { completionPolicy: { type: 'Always', activeDeadlineSeconds: 2 } }, 'sleep 60'));
    await eventually('three running pods', async () => (await jobPods(w, 'bcj-late')).filter((p) => p.status?.phase === 'Running').length === 3);
    const job = await waitJob(w, 'bcj-late', phaseIs('failed'), 'failed');
    assert.deepEqual(counters(job), { desired: 3, active: 0, succeeded: 0, failed: 3, phase: 'failed' });
    const failed = job.status!.conditions!.find((c) => c.type === 'Failed')!;
    assert.deepEqual([failed.status, failed.reason, failed.message], ['True', 'Failed', 'Job t/bcj-late was active longer than specified deadline']);
    await eventually('pods gone', async () => (await jobPods(w, 'bcj-late')).length === 0);
    assert.ok((await eventsAbout(w, 'bcj-late')).some((e) => e.reason === 'DeadlineExceeded'));
  });

  test('7: ttlSecondsAfterFinished 2: the job is deleted about 2 s after completing, its pods collected', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-ttl', { completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 2 } }));
    const done = await waitJob(w, 'bcj-ttl', phaseIs('completed'), 'completed');
    const completedAt = Date.parse(done.status!.completionTime!);
    await eventually('job deleted', async () => getJob(w, 'bcj-ttl').then(() => false, (e: unknown) => e instanceof StatusError && e.code === 404), 15_000);
    const after = Date.now();
    assert.ok(after - completedAt >= 2000 - 1000, `deleted ${after - completedAt} ms after completionTime (whole seconds)`);
    await eventually('pods garbage collected', async () => (await jobPods(w, 'bcj-ttl')).length === 0, 15_000);
  });

  test('10: refused manifests: preset controller label, restartPolicy Always, Never with a TTL', async () => {
    const refuse = async (job: BroadcastJob, fragment: string) => assert.rejects(w.client.create(BroadcastJobs, job),
      (e: unknown) => e instanceof StatusError && e.message.includes(fragment), fragment);
    const labelled = bcj('bad-label');
    (labelled.spec!.template as Record<string, unknown>).metadata = { labels: { 'broadcastjob-name': 'x' } };
    await refuse(labelled, '"broadcastjob-name" and "broadcastjob-controller-uid" are not allowed to preset in pod labels');
    await refuse(bcj('bad-restart', { podSpec: { restartPolicy: 'Always' } }), 'pod restartPolicy can only be Never or OnFailure');
    await refuse(bcj('bad-ttl', { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 1 } }), 'ttlSecondsAfterFinished can just work with Always CompletionPolicyType');
  });

  test('negative parallelism is accepted, as upstream (no message to copy): no pod, TooManyActivePods', async () => {
    await w.client.create(BroadcastJobs, bcj('bcj-negative', { parallelism: -1 }));
    await eventually('TooManyActivePods', async () => (await eventsAbout(w, 'bcj-negative')).some((e) => e.reason === 'TooManyActivePods' && e.message === 'Number of active pods exceed parallelism limit'));
    assert.equal((await jobPods(w, 'bcj-negative')).length, 0);
    assert.deepEqual(counters(await getJob(w, 'bcj-negative')), { desired: 3, active: 0, succeeded: 0, failed: 0, phase: 'running' });
  });
});
