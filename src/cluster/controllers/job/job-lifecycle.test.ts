/**
 * Job lifecycle on an embedded control plane with a fake clock: suspend and resume,
 * activeDeadlineSeconds, ttlSecondsAfterFinished, and pods of a deleted Job losing the finalizer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Jobs, Pods } from '../../../api/resource-type.js';
import { isNotFound } from '../../../machinery/errors.js';
import { setRootLogger } from '../../../machinery/log.js';
import { eventually, listPods, setPodState, settle, sleeper, controllerEnvForSuite } from '../../../testing/fake-clock-controller-env.js';
import { setupJobController } from './index.js';
import { jobTrackingFinalizer } from './types.js';
import type { Job } from '../../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));
const ns = 'default';

function job(name: string, spec: Record<string, unknown>): Job {
  return {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: ns },
    spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: sleeper } } },
  };
}

describe('job lifecycle', () => {
  const env = controllerEnvForSuite((mgr) => setupJobController(mgr));

  const podsOf = (name: string) => listPods(env.client, ns, `batch.kubernetes.io/job-name=${name}`);
  const activePods = async (name: string) => (await podsOf(name)).filter((p) => !p.metadata.deletionTimestamp && (!p.status?.phase || ['Pending', 'Running'].includes(p.status.phase)));
  const getJob = (name: string) => env.client.get<Job>(Jobs, ns, name);
  const condition = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type && c.status === 'True');

  test('suspend deletes active pods; resume restarts them', async () => {
    await env.client.create(Jobs, job('nap', { parallelism: 2, completions: 4 }));
    await eventually(env.clock, async () => (await activePods('nap')).length === 2, 'two pods');
    await env.client.patch(Jobs, ns, 'nap', 'merge', { spec: { suspend: true } });
    const suspended = await eventually(env.clock, async () => {
      const j = await getJob('nap');
      return condition(j, 'Suspended') && (await podsOf('nap')).length === 0 ? j : undefined;
    }, 'suspended with no pods');
    assert.equal(suspended.status?.active, 0);
    await env.client.patch(Jobs, ns, 'nap', 'merge', { spec: { suspend: false } });
    await eventually(env.clock, async () => (await activePods('nap')).length === 2, 'pods again after resume');
    assert.equal((await getJob('nap')).status?.conditions?.find((c) => c.type === 'Suspended')?.status, 'False');
  });

  test('ttlSecondsAfterFinished deletes the finished Job', async () => {
    await env.client.create(Jobs, job('brief', { ttlSecondsAfterFinished: 30 }));
    const [pod] = await eventually(env.clock, async () => ((await activePods('brief')).length === 1 ? activePods('brief') : undefined), 'pod');
    await setPodState(env.client, env.clock, ns, pod!.metadata.name!, 'Succeeded');
    await eventually(env.clock, async () => condition(await getJob('brief'), 'Complete') !== undefined, 'Complete');
    await settle(50);
    assert.ok(await getJob('brief'), 'still there before the TTL');
    env.clock.advance(31_000);
    await eventually(env.clock, async () => getJob('brief').then(() => false, (e: unknown) => isNotFound(e)), 'Job deleted');
    await eventually(env.clock, async () => (await env.client.list(Pods, { namespace: ns, labelSelector: 'batch.kubernetes.io/job-name=brief' })).items.length === 0, 'pods deleted');
  });

  test('activeDeadlineSeconds fails the Job and stops its pods', async () => {
    await env.client.create(Jobs, job('slow', { activeDeadlineSeconds: 60, parallelism: 2, completions: 2 }));
    await eventually(env.clock, async () => (await activePods('slow')).length === 2, 'two pods');
    await settle(50);
    assert.equal(condition(await getJob('slow'), 'Failed'), undefined);
    env.clock.advance(61_000);
    const failed = await eventually(env.clock, async () => {
      const j = await getJob('slow');
      return condition(j, 'Failed') ? j : undefined;
    }, 'Failed by deadline');
    assert.equal(condition(failed, 'Failed')?.reason, 'DeadlineExceeded');
    assert.equal(condition(failed, 'Failed')?.message, 'Job was active longer than specified deadline');
    assert.equal(failed.status?.active, 0);
    assert.equal(failed.status?.failed, 2, 'the pods it stopped count as failed');
    assert.equal((await podsOf('slow')).length, 0);
  });

  test('pods of a Job deleted with orphan propagation lose the tracking finalizer', async () => {
    await env.client.create(Jobs, job('gone', {}));
    const [pod] = await eventually(env.clock, async () => ((await activePods('gone')).length === 1 ? activePods('gone') : undefined), 'pod');
    await env.client.delete(Jobs, ns, 'gone', { propagationPolicy: 'Orphan' });
    const released = await eventually(env.clock, async () => {
      const p = (await podsOf('gone')).find((x) => x.metadata.name === pod!.metadata.name);
      return p && !p.metadata.finalizers?.includes(jobTrackingFinalizer) ? p : undefined;
    }, 'finalizer removed');
    assert.equal(released.status?.phase, 'Pending', 'the orphan keeps running');
  });
});
