/**
 * AdvancedCronJob across manager restarts at the scheduled minute (docs/design/jobs.md §4): a
 * manager down across the fire time starts the missed run when it comes back (within
 * startingDeadlineSeconds) and skips it past the deadline; a manager restarted right after creating
 * the child never creates it twice.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedCronJobs } from '../../api/kruise/resource-types.js';
import { Jobs } from '../../api/resource-type.js';
import { acjJob, advanceTo, childrenOf, createAcj, MINUTE, nextMinute, ns, settle, startAcjEnv, until, type AcjEnv } from './fixtures.js';

describe('AdvancedCronJob and manager restarts', () => {
  let w: AcjEnv;
  before(async () => { w = await startAcjEnv(); });
  after(async () => { await w.stop(); });

  const jobsOf = (name: string) => childrenOf(w, name, Jobs);

  test('down across the minute, back within startingDeadlineSeconds: exactly one Job for that minute', async () => {
    const { createdAt } = await createAcj(w, acjJob('acj-down', { startingDeadlineSeconds: 30 }));
    const fire = nextMinute(Math.max(createdAt, w.clock.now()));
    await advanceTo(w, fire - 500);
    await w.restartManager(() => advanceTo(w, fire + 10_000));
    const [job] = await until(w, 'the missed run', async () => ((await jobsOf('acj-down')).length === 1 ? jobsOf('acj-down') : undefined));
    assert.equal(job!.metadata.name, `acj-down-${fire / 1000}`);
    await settle();
    assert.equal((await jobsOf('acj-down')).length, 1, 'no duplicate');
    await w.client.delete(AdvancedCronJobs, ns, 'acj-down');
  });

  test('down past startingDeadlineSeconds: that run is skipped, the next one runs', async () => {
    const { createdAt } = await createAcj(w, acjJob('acj-late', { startingDeadlineSeconds: 5 }));
    const fire = nextMinute(Math.max(createdAt, w.clock.now()));
    await advanceTo(w, fire - 500);
    await w.restartManager(() => advanceTo(w, fire + 20_000));
    await settle();
    assert.equal((await jobsOf('acj-late')).length, 0, 'the late run is skipped');
    await advanceTo(w, fire + MINUTE);
    const [job] = await until(w, 'the next run', async () => ((await jobsOf('acj-late')).length === 1 ? jobsOf('acj-late') : undefined));
    assert.equal(job!.metadata.name, `acj-late-${(fire + MINUTE) / 1000}`);
    await w.client.delete(AdvancedCronJobs, ns, 'acj-late');
  });

  test('restarted at the scheduled minute, repeatedly, as the Job is being created: one Job per minute, none missed', async () => {
    const { createdAt } = await createAcj(w, acjJob('acj-flap'));
    const first = nextMinute(Math.max(createdAt, w.clock.now()));
    for (let i = 0; i < 3; i++) {
      await advanceTo(w, first + i * MINUTE);
      await w.restartManager();
      await until(w, `run ${i + 1}`, async () => (await jobsOf('acj-flap')).length === i + 1);
    }
    await settle();
    assert.deepEqual((await jobsOf('acj-flap')).map((j) => j.metadata.name), [0, 1, 2].map((i) => `acj-flap-${(first + i * MINUTE) / 1000}`));
    await w.client.delete(AdvancedCronJobs, ns, 'acj-flap');
  });
});
