/**
 * AdvancedCronJob manifests the webhooks change or refuse, through the API (docs/design/jobs.md §4):
 * time zones, an ImageListPullJob template's defaults and limits, and which fields an update may change.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedCronJobs } from '../../api/kruise/resource-types.js';
import { StatusError } from '../../machinery/errors.js';
import { acjB, acjJob, getAcj, ns, startAcjEnv, type AcjEnv, type AdvancedCronJob } from './fixtures.js';

describe('AdvancedCronJob admission', () => {
  let w: AcjEnv;
  before(async () => { w = await startAcjEnv(); });
  after(async () => { await w.stop(); });

  const refuse = (acj: AdvancedCronJob, fragment: string) => assert.rejects(w.client.create(AdvancedCronJobs, acj),
    (e: unknown) => e instanceof StatusError && e.message.includes(fragment), fragment);
  const ilpj = (name: string, spec: Record<string, unknown> = {}, pull: Record<string, unknown> = {}): AdvancedCronJob => ({
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: { name, namespace: ns },
    spec: { schedule: '0 * * * *', template: { imageListPullJobTemplate: { spec: { images: ['nginx:1.25'], ...pull } } }, ...spec },
  } as AdvancedCronJob);

  test('7: timeZone Local, an unknown zone, a TZ= schedule with timeZone, an invalid cron', async () => {
    await refuse(acjB('tz-local', { timeZone: 'Local' }), 'timeZone must be an explicit time zone');
    await refuse(acjB('tz-mars', { timeZone: 'Mars/Olympus' }), 'unknown time zone Mars/Olympus');
    await refuse(acjB('tz-both', { schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' }), 'cannot use both timeZone field and TZ or CRON_TZ in schedule');
    await refuse(acjB('bad-cron', { schedule: '61 * * * *' }), 'end of range (61) above maximum (59): 61');
  });

  test('a Job template that is not a valid Job is refused', async () => {
    const acj = acjJob('bad-job');
    (acj.spec!.template.jobTemplate as { spec: { template: { spec: { containers: unknown[] } } } }).spec.template.spec.containers = [];
    await refuse(acj, 'spec.template.jobTemplate.spec.template.spec.containers');
  });

  test('8: an ImageListPullJob template: Replace and pull defaults; Allow or a TTL refused', async () => {
    await w.client.create(AdvancedCronJobs, ilpj('acj-ilpj'));
    const stored = await getAcj(w, 'acj-ilpj');
    assert.equal(stored.spec!.concurrencyPolicy, 'Replace');
    const pull = stored.spec!.template.imageListPullJobTemplate!.spec!;
    assert.deepEqual(pull.pullPolicy, { timeoutSeconds: 600, backoffLimit: 3 });
    assert.equal(pull.completionPolicy!.type, 'Always');
    await refuse(ilpj('ilpj-allow', { concurrencyPolicy: 'Allow' }), 'spec.concurrencyPolicy');
    await refuse(ilpj('ilpj-ttl', {}, { completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 60 } }), 'ttlSecondsAfterFinished');
  });

  test('9: updating the BroadcastJob template is refused; updating the schedule is accepted', async () => {
    await w.client.create(AdvancedCronJobs, acjB('acj-upd'));
    await assert.rejects(w.client.patch(AdvancedCronJobs, ns, 'acj-upd', 'merge', { spec: { template: { broadcastJobTemplate: { spec: { parallelism: 2 } } } } }),
      (e: unknown) => e instanceof StatusError && e.message.includes('updates to advancedcronjob spec for fields other than'));
    await w.client.patch(AdvancedCronJobs, ns, 'acj-upd', 'merge', { spec: { schedule: '*/5 * * * *' } });
    assert.equal((await getAcj(w, 'acj-upd')).spec!.schedule, '*/5 * * * *');
  });
});
