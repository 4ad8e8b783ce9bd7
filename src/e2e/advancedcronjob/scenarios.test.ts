/**
 * AdvancedCronJob acceptance scenarios on a fake clock (docs/design/jobs.md §4): the child of each
 * fire time (BroadcastJob and Job templates), Forbid, Replace, paused, the history limit and time zones.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedCronJobs, BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Jobs } from '../../api/resource-type.js';
import { acjB, acjJob, advanceTo, childrenOf, createAcj, finishChild, getAcj, MINUTE, nextMinute, ns, settle, startAcjEnv, until, type AcjEnv } from './fixtures.js';

describe('AdvancedCronJob scenarios', () => {
  let w: AcjEnv;
  before(async () => { w = await startAcjEnv(); });
  after(async () => { await w.stop(); });

  const count = (n: number, name: string, type = BroadcastJobs) => until(w, `${n} children of ${name}`, async () => {
    const list = await childrenOf(w, name, type);
    return list.length === n ? list : undefined;
  });

  test('1: at the next minute a BroadcastJob <acj>-<unix seconds> with the template labels, scheduled-at and a controller reference', async () => {
    const { acj, createdAt } = await createAcj(w, acjB('acj-b'));
    const fire = nextMinute(Math.max(createdAt, w.clock.now()));
    await advanceTo(w, fire - 1000);
    await settle();
    assert.equal((await childrenOf(w, 'acj-b')).length, 0, 'nothing before the minute');
    await advanceTo(w, fire);
    const [child] = await count(1, 'acj-b');
    assert.equal(child!.metadata.name, `acj-b-${fire / 1000}`);
    assert.equal(child!.metadata.labels!.from, 'acj');
    assert.equal(child!.metadata.annotations!['apps.kruise.io/scheduled-at'], new Date(fire).toISOString().replace('.000', ''));
    assert.deepEqual(child!.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'acj-b', uid: acj.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const status = await until(w, 'status', async () => ((await getAcj(w, 'acj-b')).status?.active?.length === 1 ? (await getAcj(w, 'acj-b')).status : undefined));
    assert.equal(status!.type, 'BroadcastJob');
    assert.equal(status!.active![0]!.name, child!.metadata.name);
    assert.equal(status!.lastScheduleTime, new Date(fire).toISOString().replace('.000', ''));
    await w.client.delete(AdvancedCronJobs, ns, 'acj-b');
  });

  test('2: a jobTemplate creates a batch/v1 Job; status.type Job', async () => {
    const { createdAt } = await createAcj(w, acjJob('acj-j'));
    await advanceTo(w, nextMinute(Math.max(createdAt, w.clock.now())));
    const [job] = await count(1, 'acj-j', Jobs);
    assert.equal(job!.metadata.labels!.from, 'acj-job');
    assert.equal((await until(w, 'type', async () => (await getAcj(w, 'acj-j')).status?.type)), 'Job');
    await w.client.delete(AdvancedCronJobs, ns, 'acj-j');
  });

  test('3: Forbid with a child that never finishes: still one child after two more ticks', async () => {
    const { createdAt } = await createAcj(w, acjB('acj-forbid', { concurrencyPolicy: 'Forbid' }));
    const first = nextMinute(Math.max(createdAt, w.clock.now()));
    await advanceTo(w, first);
    await count(1, 'acj-forbid');
    await until(w, 'active in status', async () => (await getAcj(w, 'acj-forbid')).status?.active?.length === 1);
    await advanceTo(w, first + MINUTE);
    await settle();
    await advanceTo(w, first + 2 * MINUTE);
    await settle();
    assert.equal((await childrenOf(w, 'acj-forbid')).length, 1);
    await w.client.delete(AdvancedCronJobs, ns, 'acj-forbid');
  });

  test('4: Replace: at the second tick the first child is deleted and the new one exists', async () => {
    const { createdAt } = await createAcj(w, acjB('acj-replace', { concurrencyPolicy: 'Replace' }));
    const first = nextMinute(Math.max(createdAt, w.clock.now()));
    await advanceTo(w, first);
    await count(1, 'acj-replace');
    await until(w, 'active in status', async () => (await getAcj(w, 'acj-replace')).status?.active?.length === 1);
    await advanceTo(w, first + MINUTE);
    const [only] = await until(w, 'the second child alone', async () => {
      const list = await childrenOf(w, 'acj-replace');
      return list.length === 1 && list[0]!.metadata.name === `acj-replace-${(first + MINUTE) / 1000}` ? list : undefined;
    });
    assert.ok(only);
    await w.client.delete(AdvancedCronJobs, ns, 'acj-replace');
  });

  test('5: paused creates nothing; unpausing creates only the most recent missed run, then one per tick', async () => {
    const { createdAt } = await createAcj(w, acjB('acj-paused', { paused: true }));
    const first = nextMinute(Math.max(createdAt, w.clock.now()));
    for (let i = 0; i < 3; i++) {
      await advanceTo(w, first + i * MINUTE);
      await settle(150);
    }
    assert.equal((await childrenOf(w, 'acj-paused')).length, 0);
    await w.client.patch(AdvancedCronJobs, ns, 'acj-paused', 'merge', { spec: { paused: false } });
    const [resumed] = await count(1, 'acj-paused');
    assert.equal(resumed!.metadata.name, `acj-paused-${(first + 2 * MINUTE) / 1000}`, 'the most recent missed run only');
    await advanceTo(w, first + 3 * MINUTE);
    const list = await count(2, 'acj-paused');
    assert.equal(list[1]!.metadata.name, `acj-paused-${(first + 3 * MINUTE) / 1000}`);
    await w.client.delete(AdvancedCronJobs, ns, 'acj-paused');
  });

  test('6: successfulJobsHistoryLimit 1: after three completed runs only the newest child remains', async () => {
    const { createdAt } = await createAcj(w, acjJob('acj-hist', { successfulJobsHistoryLimit: 1 }));
    const first = nextMinute(Math.max(createdAt, w.clock.now()));
    for (let i = 0; i < 3; i++) {
      await advanceTo(w, first + i * MINUTE);
      const name = `acj-hist-${(first + i * MINUTE) / 1000}`;
      const child = await until(w, name, async () => (await childrenOf(w, 'acj-hist', Jobs)).find((c) => c.metadata.name === name));
      await finishChild(w, child, Jobs, first + i * MINUTE);
    }
    const [newest] = await until(w, 'one child left', async () => {
      const list = await childrenOf(w, 'acj-hist', Jobs);
      return list.length === 1 ? list : undefined;
    });
    assert.equal(newest!.metadata.name, `acj-hist-${(first + 2 * MINUTE) / 1000}`);
    await w.client.delete(AdvancedCronJobs, ns, 'acj-hist');
  });

  test('7: timeZone Asia/Shanghai, 0 9 * * *: fires at 01:00 UTC, scheduled-at in +08:00', async () => {
    // Run within a minute before 01:00 UTC, the check a minute before the fire cannot be made today:
    // it moves to tomorrow, and the deadline keeps today's run, then long missed, from starting.
    const { createdAt } = await createAcj(w, acjB('acj-tz', { schedule: '0 9 * * *', timeZone: 'Asia/Shanghai', startingDeadlineSeconds: 60 }));
    const day = 24 * 60 * MINUTE;
    const from = Math.max(createdAt, w.clock.now());
    let fire = Math.floor(from / day) * day + 60 * MINUTE; // 01:00 UTC today
    if (fire - MINUTE <= from) fire += day;
    await advanceTo(w, fire - MINUTE);
    await settle();
    assert.equal((await childrenOf(w, 'acj-tz')).length, 0);
    await advanceTo(w, fire);
    const [child] = await count(1, 'acj-tz');
    assert.equal(child!.metadata.name, `acj-tz-${fire / 1000}`);
    assert.match(child!.metadata.annotations!['apps.kruise.io/scheduled-at']!, /T09:00:00\+08:00$/);
    await w.client.delete(AdvancedCronJobs, ns, 'acj-tz');
  });
});
