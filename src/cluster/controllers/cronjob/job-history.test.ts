import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jobsBeyondHistory, newJobFor, syncActive } from './job-history.js';
import { scheduledTimestampAnnotation, type OwnedJob } from './types.js';
import type { CronJob } from '../../../api/core/index.js';

const cj: CronJob = {
  metadata: { name: 'backup', namespace: 'ops', uid: 'cj-uid' },
  spec: { schedule: '0 * * * *', timeZone: 'Europe/Paris', successfulJobsHistoryLimit: 2, failedJobsHistoryLimit: 1, jobTemplate: { metadata: { labels: { team: 'a' } }, spec: { backoffLimit: 2, template: {} } } },
};
const job = (name: string, state?: 'Complete' | 'Failed', start?: string, completion?: string): OwnedJob => ({
  metadata: { name, uid: `uid-${name}`, namespace: 'ops' },
  spec: { template: {} },
  status: { startTime: start, completionTime: completion, conditions: state ? [{ type: state, status: 'True' }] : [] },
});

test('newJobFor names the Job by the minute and stamps the scheduled time in the zone', () => {
  const j = newJobFor(cj, Date.parse('2024-06-01T10:00:00Z'));
  assert.equal(j.metadata.name, 'backup-28620600');
  assert.equal(j.metadata.annotations?.[scheduledTimestampAnnotation], '2024-06-01T12:00:00+02:00');
  assert.deepEqual(j.metadata.labels, { team: 'a' });
  assert.deepEqual(j.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller]), [['CronJob', 'cj-uid', true]]);
  assert.deepEqual(j.spec, cj.spec.jobTemplate.spec, 'the Job spec is the job template spec');
});

describe('syncActive', () => {
  test('finished Jobs leave the active list, running strays join it, lastSuccessfulTime advances', () => {
    const status = { active: [{ name: 'a', uid: 'uid-a' }, { name: 'gone', uid: 'uid-gone' }], lastSuccessfulTime: '2024-01-01T00:00:00Z' };
    const r = syncActive(status, [job('a', 'Complete', '2024-01-02T00:00:00Z', '2024-01-02T00:01:00Z'), job('b')]);
    assert.deepEqual(r.status.active?.map((x) => x.name), ['gone', 'b']);
    assert.deepEqual(r.sawCompleted, [{ name: 'a', condition: 'Complete' }]);
    assert.deepEqual(r.unknown, ['gone']);
    assert.equal(r.status.lastSuccessfulTime, '2024-01-02T00:01:00Z');
  });
  test('a Job being deleted is not adopted into the active list', () => {
    const deleting = { ...job('c'), metadata: { ...job('c').metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } };
    assert.deepEqual(syncActive({}, [deleting]).status.active, []);
  });
});

test('jobsBeyondHistory keeps the newest finished Jobs per outcome', () => {
  const jobs = [
    job('s1', 'Complete', '2024-01-01T00:00:00Z'), job('s2', 'Complete', '2024-01-02T00:00:00Z'), job('s3', 'Complete', '2024-01-03T00:00:00Z'),
    job('f1', 'Failed', '2024-01-01T00:00:00Z'), job('f2', 'Failed', '2024-01-02T00:00:00Z'), job('running'),
  ];
  assert.deepEqual(jobsBeyondHistory(cj, jobs).map((j) => j.metadata.name), ['s1', 'f1']);
  assert.deepEqual(jobsBeyondHistory({ ...cj, spec: { ...cj.spec, successfulJobsHistoryLimit: undefined, failedJobsHistoryLimit: 0 } }, jobs).map((j) => j.metadata.name), ['f1', 'f2']);
});
