/**
 * The Job controller on an embedded control plane: completions with parallelism, Indexed Jobs,
 * failure by backoffLimit (with the failed-pod backoff on the fake clock).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Jobs } from '../../../api/resource-type.js';
import { setRootLogger } from '../../../machinery/log.js';
import { eventually, listPods, setPodState, settle, sleeper, controllerEnvForSuite } from '../../../testing/fake-clock-controller-env.js';
import { setupJobController } from './index.js';
import { completionIndexAnnotation, jobTrackingFinalizer } from './types.js';
import type { Job } from '../../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));
const ns = 'default';

function job(name: string, spec: Record<string, unknown>): Job {
  return {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: ns },
    spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: sleeper } } },
  };
}

describe('job controller', () => {
  const env = controllerEnvForSuite((mgr) => setupJobController(mgr));

  const podsOf = (name: string) => listPods(env.client, ns, `batch.kubernetes.io/job-name=${name}`);
  const activePods = async (name: string) => (await podsOf(name)).filter((p) => !p.status?.phase || ['Pending', 'Running'].includes(p.status.phase));
  const getJob = (name: string) => env.client.get<Job>(Jobs, ns, name);
  const condition = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type && c.status === 'True');

  test('runs completions with at most parallelism pods, then completes', async () => {
    await env.client.create(Jobs, job('pi', { completions: 3, parallelism: 2 }));
    const first = await eventually(env.clock, async () => ((await activePods('pi')).length === 2 ? activePods('pi') : undefined), 'two pods');
    for (const pod of first) {
      assert.ok(pod.metadata.finalizers?.includes(jobTrackingFinalizer));
      assert.equal(pod.metadata.labels?.['batch.kubernetes.io/job-name'], 'pi');
      assert.match(pod.metadata.name!, /^pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    }
    await setPodState(env.client, env.clock, ns, first[0]!.metadata.name!, 'Ready');
    await eventually(env.clock, async () => (await getJob('pi')).status?.ready === 1, 'ready=1');
    for (const pod of first) await setPodState(env.client, env.clock, ns, pod.metadata.name!, 'Succeeded');
    const third = await eventually(env.clock, async () => {
      const active = await activePods('pi');
      return active.length === 1 ? active[0] : undefined;
    }, 'one more pod for the last completion');
    await eventually(env.clock, async () => (await getJob('pi')).status?.succeeded === 2, 'succeeded=2');
    await setPodState(env.client, env.clock, ns, third.metadata.name!, 'Succeeded');
    const done = await eventually(env.clock, async () => {
      const j = await getJob('pi');
      return condition(j, 'Complete') ? j : undefined;
    }, 'Complete');
    assert.equal(done.status?.succeeded, 3);
    assert.equal(done.status?.active, 0);
    assert.ok(done.status?.completionTime && done.status.startTime);
    assert.equal(condition(done, 'SuccessCriteriaMet')?.reason, 'CompletionsReached');
    assert.deepEqual(done.status?.uncountedTerminatedPods, {});
    const pods = await eventually(env.clock, async () => {
      const all = await podsOf('pi');
      return all.every((p) => !p.metadata.finalizers?.includes(jobTrackingFinalizer)) ? all : undefined;
    }, 'finalizers released');
    assert.equal(pods.length, 3);
  });

  test('fails with BackoffLimitExceeded once failures pass backoffLimit, waiting 10 s between tries', async () => {
    await env.client.create(Jobs, job('flaky', { backoffLimit: 1 }));
    const [first] = await eventually(env.clock, async () => ((await activePods('flaky')).length === 1 ? activePods('flaky') : undefined), 'first pod');
    await setPodState(env.client, env.clock, ns, first!.metadata.name!, 'Failed');
    await eventually(env.clock, async () => (await getJob('flaky')).status?.failed === 1, 'failed=1');
    await settle(100);
    assert.equal((await activePods('flaky')).length, 0, 'no replacement during the 10 s backoff');
    env.clock.advance(10_000);
    const [second] = await eventually(env.clock, async () => ((await activePods('flaky')).length === 1 ? activePods('flaky') : undefined), 'replacement after backoff');
    await setPodState(env.client, env.clock, ns, second!.metadata.name!, 'Failed');
    const failed = await eventually(env.clock, async () => {
      const j = await getJob('flaky');
      return condition(j, 'Failed') ? j : undefined;
    }, 'Failed');
    assert.equal(condition(failed, 'Failed')?.reason, 'BackoffLimitExceeded');
    assert.equal(condition(failed, 'FailureTarget')?.message, 'Job has reached the specified backoff limit');
    assert.equal(failed.status?.failed, 2);
    assert.equal(failed.status?.completionTime, undefined);
  });

  test('Indexed: one pod per index with its annotation and hostname; completedIndexes', async () => {
    await env.client.create(Jobs, job('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    const pods = await eventually(env.clock, async () => ((await activePods('idx')).length === 3 ? activePods('idx') : undefined), 'three pods');
    const byIndex = new Map(pods.map((p) => [p.metadata.annotations?.[completionIndexAnnotation], p]));
    assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
    assert.equal(byIndex.get('1')!.spec?.hostname, 'idx-1');
    assert.match(byIndex.get('1')!.metadata.name!, /^idx-1-/);
    await setPodState(env.client, env.clock, ns, byIndex.get('0')!.metadata.name!, 'Succeeded');
    await setPodState(env.client, env.clock, ns, byIndex.get('2')!.metadata.name!, 'Succeeded');
    await eventually(env.clock, async () => (await getJob('idx')).status?.completedIndexes === '0,2', 'completedIndexes 0,2');
    await setPodState(env.client, env.clock, ns, byIndex.get('1')!.metadata.name!, 'Succeeded');
    const done = await eventually(env.clock, async () => {
      const j = await getJob('idx');
      return condition(j, 'Complete') ? j : undefined;
    }, 'Complete');
    assert.equal(done.status?.completedIndexes, '0-2');
  });
});
