/**
 * The CronJob controller on an embedded control plane with a fake clock: a Job at the scheduled
 * minute (named by the minute, annotated with the scheduled time), Forbid skipping while a run is
 * active, Replace, history cleanup, suspend. Jobs are finished by hand (no Job controller runs).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { CronJobs, Events, Jobs } from '../../../api/resource-type.js';
import { setRootLogger } from '../../../machinery/log.js';
import { eventually, settle, sleeper, controllerEnvForSuite } from '../../../testing/fake-clock-controller-env.js';
import { setupCronJobController } from './index.js';
import { scheduledTimestampAnnotation, type OwnedJob } from './types.js';
import type { CronJob } from '../../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));
const ns = 'default';
const MINUTE = 60_000;

describe('cronjob controller', () => {
  const env = controllerEnvForSuite((mgr) => setupCronJobController(mgr));

  const create = async (name: string, spec: Record<string, unknown>) => {
    const cj = await env.client.create<CronJob>(CronJobs, {
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: ns },
      spec: { schedule: '* * * * *', ...spec, jobTemplate: { metadata: { labels: { cron: name } }, spec: { template: { spec: { restartPolicy: 'Never', containers: sleeper } } } } },
    });
    return Date.parse(cj.metadata.creationTimestamp!);
  };
  const jobsOf = async (name: string) => (await env.client.list<OwnedJob>(Jobs, { namespace: ns, labelSelector: `cron=${name}` })).items
    .filter((j) => !j.metadata.deletionTimestamp).sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  /** Moves the fake clock to `at` (never backwards). */
  const advanceTo = (at: number) => env.clock.advance(Math.max(0, at - env.clock.now()));
  const finish = (job: OwnedJob, type: 'Complete' | 'Failed', at: number) => {
    const t = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const conditions = type === 'Complete'
      ? [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: t, reason: 'CompletionsReached' }, { type: 'Complete', status: 'True', lastTransitionTime: t, reason: 'CompletionsReached' }]
      : [{ type: 'FailureTarget', status: 'True', lastTransitionTime: t, reason: 'BackoffLimitExceeded' }, { type: 'Failed', status: 'True', lastTransitionTime: t, reason: 'BackoffLimitExceeded' }];
    const status = type === 'Complete' ? { startTime: t, completionTime: t, succeeded: 1, conditions } : { startTime: t, failed: 1, conditions };
    return env.client.patch(Jobs, ns, job.metadata.name!, 'merge', { status }, { subresource: 'status' });
  };

  test('creates the Job at the scheduled minute, named and annotated by it', async () => {
    const created = await create('tick', { timeZone: 'America/New_York' });
    const first = Math.floor(created / MINUTE) * MINUTE + MINUTE;
    advanceTo(first - 1000);
    await settle(150);
    assert.equal((await jobsOf('tick')).length, 0, 'nothing before the minute');
    advanceTo(first);
    const [job] = await eventually(env.clock, async () => ((await jobsOf('tick')).length === 1 ? jobsOf('tick') : undefined), 'first job');
    assert.equal(job!.metadata.name, `tick-${first / MINUTE}`);
    const stamp = job!.metadata.annotations?.[scheduledTimestampAnnotation];
    assert.equal(Date.parse(stamp!), first);
    assert.match(stamp!, /-0[45]:00$/, 'in the CronJob time zone');
    assert.equal(job!.metadata.ownerReferences?.[0]?.kind, 'CronJob');
    const cj = await eventually(env.clock, async () => {
      const c = await env.client.get<CronJob>(CronJobs, ns, 'tick');
      return c.status?.active?.length === 1 ? c : undefined;
    }, 'active ref');
    assert.equal(cj.status?.active?.[0]?.name, job!.metadata.name);
    assert.equal(Date.parse(cj.status!.lastScheduleTime!), first);
    await env.client.delete(CronJobs, ns, 'tick');
  });

  // Without a starting deadline, upstream starts a run skipped under Forbid as soon as the previous
  // Job finishes; a 10 s deadline makes the skipped minute a miss for good.
  test('Forbid skips a run while the previous Job is active, runs again once it finished', async () => {
    const created = await create('solo', { concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 1, startingDeadlineSeconds: 10 });
    const first = Math.floor(Math.max(created, env.clock.now()) / MINUTE) * MINUTE + MINUTE;
    advanceTo(first);
    const [job1] = await eventually(env.clock, async () => ((await jobsOf('solo')).length === 1 ? jobsOf('solo') : undefined), 'first job');
    advanceTo(first + MINUTE);
    await eventually(env.clock, async () => {
      const events = await env.client.list(Events, { namespace: ns, fieldSelector: 'involvedObject.name=solo' });
      return events.items.some((e) => e.reason === 'JobAlreadyActive');
    }, 'JobAlreadyActive event');
    assert.equal((await jobsOf('solo')).length, 1, 'no second job under Forbid');
    advanceTo(first + MINUTE + 15_000);
    await finish(job1!, 'Complete', first + MINUTE + 15_000);
    await eventually(env.clock, async () => (await env.client.get<CronJob>(CronJobs, ns, 'solo')).status?.lastSuccessfulTime !== undefined, 'lastSuccessfulTime');
    advanceTo(first + 2 * MINUTE);
    const jobs = await eventually(env.clock, async () => {
      const list = await jobsOf('solo');
      return list.some((j) => j.metadata.name === `solo-${first / MINUTE + 2}`) ? list : undefined;
    }, 'the next run after the first finished');
    assert.ok(!jobs.some((j) => j.metadata.name === `solo-${first / MINUTE + 1}`), 'the forbidden minute never ran');
    await finish(jobs.find((j) => j.metadata.name === `solo-${first / MINUTE + 2}`)!, 'Complete', first + 2 * MINUTE + 1000);
    await eventually(env.clock, async () => {
      const names = (await jobsOf('solo')).map((j) => j.metadata.name);
      return names.length === 1 && names[0] === `solo-${first / MINUTE + 2}`;
    }, 'history limit 1 keeps only the newest finished job');
    await env.client.delete(CronJobs, ns, 'solo');
  });

  test('Replace deletes the active Job and starts the new one', async () => {
    const created = await create('swap', { concurrencyPolicy: 'Replace' });
    const first = Math.floor(Math.max(created, env.clock.now()) / MINUTE) * MINUTE + MINUTE;
    advanceTo(first);
    await eventually(env.clock, async () => (await jobsOf('swap')).length === 1, 'first job');
    advanceTo(first + MINUTE);
    const jobs = await eventually(env.clock, async () => {
      const list = await jobsOf('swap');
      return list.length === 1 && list[0]!.metadata.name === `swap-${first / MINUTE + 1}` ? list : undefined;
    }, 'replaced by the second');
    assert.equal(jobs.length, 1);
    await env.client.delete(CronJobs, ns, 'swap');
  });

  test('a suspended CronJob starts nothing', async () => {
    const created = await create('paused', { suspend: true });
    advanceTo(Math.floor(Math.max(created, env.clock.now()) / MINUTE) * MINUTE + 2 * MINUTE);
    await settle(200);
    assert.equal((await jobsOf('paused')).length, 0);
  });
});
