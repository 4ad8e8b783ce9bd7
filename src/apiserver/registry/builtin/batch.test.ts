import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { cronScheduleError } from './batch-cronjobs.js';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

const jobs = findBuiltin('batch', 'jobs');
const cronJobs = findBuiltin('batch', 'cronjobs');

const podTemplate = (extra: Record<string, unknown> = {}) => ({
  spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }], ...extra },
});
const job = (spec: Record<string, unknown> = {}): KObject => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', uid: 'job-uid' }, spec: { template: podTemplate(), ...spec },
});

describe('jobs', () => {
  test('defaults, generated selector and labels', () => {
    const { object, errors } = simulateCreate(jobs, job());
    assert.deepEqual(errors, []);
    const spec = object.spec as Record<string, unknown> & { template: { metadata: unknown } };
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.completions, 1);
    assert.equal(spec.backoffLimit, 6);
    assert.equal(spec.completionMode, 'NonIndexed');
    assert.equal(spec.suspend, false);
    assert.equal(spec.podReplacementPolicy, 'TerminatingOrFailed');
    assert.equal(spec.manualSelector, undefined);
    assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'job-uid' } });
    const labels = {
      'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'job-uid', 'batch.kubernetes.io/controller-uid': 'job-uid',
    };
    assert.deepEqual(spec.template.metadata, { labels });
    assert.deepEqual(object.metadata.labels, labels);
  });

  test('parallelism alone leaves completions unset', () => {
    const spec = simulateCreate(jobs, job({ parallelism: 3 })).object.spec as Record<string, unknown>;
    assert.equal(spec.parallelism, 3);
    assert.equal(spec.completions, undefined);
  });

  test('own labels are kept; user template labels are kept', () => {
    const j = job({ template: { metadata: { labels: { app: 'pi' } }, ...podTemplate() } });
    j.metadata.labels = { team: 'a' };
    const { object } = simulateCreate(jobs, j);
    assert.deepEqual(object.metadata.labels, { team: 'a' });
    assert.equal((object.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels.app, 'pi');
  });

  test('manual selector: nothing generated', () => {
    const { object, errors } = simulateCreate(jobs, job({
      manualSelector: true, selector: { matchLabels: { app: 'pi' } }, template: { metadata: { labels: { app: 'pi' } }, ...podTemplate() },
    }));
    assert.deepEqual(errors, []);
    assert.deepEqual((object.spec as { selector: unknown }).selector, { matchLabels: { app: 'pi' } });
  });

  test('restartPolicy defaulted to Always is refused the upstream way', () => {
    const { errors } = simulateCreate(jobs, job({ template: { spec: { containers: [{ name: 'pi', image: 'perl' }] } } }));
    assert.deepEqual(errors, ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  });

  test('a conflicting user selector is caught', () => {
    const { errors } = simulateCreate(jobs, job({ selector: { matchLabels: { app: 'other' } } }));
    assert.ok(errors.includes('spec.selector: Invalid value: {"matchLabels":{"app":"other","batch.kubernetes.io/controller-uid":"job-uid"}}: `selector` not auto-generated'), errors.join('\n'));
  });

  test('selector and template are immutable; a suspended job may change scheduling directives', () => {
    const old = simulateCreate(jobs, job()).object;
    const sel = structuredClone(old);
    (sel.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels.extra = 'x';
    assert.ok(simulateUpdate(jobs, old, sel).errors.some((e) => e.startsWith('spec.selector: Invalid value: ') && e.endsWith(': field is immutable')));
    const image = structuredClone(old);
    (image.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image = 'perl:6';
    const errs = simulateUpdate(jobs, old, image).errors;
    assert.equal(errs.length, 1);
    assert.match(errs[0], /^spec\.template: Invalid value: .*: field is immutable$/);

    const suspended = simulateCreate(jobs, job({ suspend: true })).object;
    const placed = structuredClone(suspended);
    (placed.spec as { template: { spec: Record<string, unknown> } }).template.spec.nodeSelector = { zone: 'a' };
    assert.deepEqual(simulateUpdate(jobs, suspended, placed).errors, []);
  });

  test('completions only change for indexed jobs in tandem with parallelism', () => {
    const old = simulateCreate(jobs, job({ completions: 2, parallelism: 2 })).object;
    const next = structuredClone(old);
    (next.spec as Record<string, unknown>).completions = 3;
    assert.deepEqual(simulateUpdate(jobs, old, next).errors, ['spec.completions: Invalid value: 3: field is immutable']);
    const indexed = simulateCreate(jobs, job({ completions: 2, parallelism: 2, completionMode: 'Indexed' })).object;
    const scaled = structuredClone(indexed);
    Object.assign(scaled.spec as object, { completions: 4, parallelism: 4 });
    assert.deepEqual(simulateUpdate(jobs, indexed, scaled).errors, []);
  });

  test('Orphan is the default propagation; status.successful field selector', () => {
    assert.equal(jobs.strategy.defaultPropagationPolicy, 'Orphan');
    assert.equal(cronJobs.strategy.defaultPropagationPolicy, undefined);
    assert.deepEqual(jobs.strategy.fieldAttributes!({ metadata: {}, status: { succeeded: 2 } }), { 'status.successful': '2' });
  });
});

describe('cronjobs', () => {
  const cronJob = (spec: Record<string, unknown> = {}): KObject => ({
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'hello' },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate() } }, ...spec },
  });

  test('defaults; the job template gets pod defaults but no job defaults', () => {
    const { object, errors } = simulateCreate(cronJobs, cronJob());
    assert.deepEqual(errors, []);
    const spec = object.spec as Record<string, unknown> & { jobTemplate: { spec: Record<string, unknown> & { template: { spec: Record<string, unknown> } } } };
    assert.equal(spec.concurrencyPolicy, 'Allow');
    assert.equal(spec.suspend, false);
    assert.equal(spec.successfulJobsHistoryLimit, 3);
    assert.equal(spec.failedJobsHistoryLimit, 1);
    assert.equal(spec.jobTemplate.spec.backoffLimit, undefined);
    assert.equal(spec.jobTemplate.spec.template.spec.dnsPolicy, 'ClusterFirst');
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    ['schedule required', { schedule: '' }, ['spec.schedule: Required value']],
    ['schedule fields', { schedule: '* * *' }, ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]']],
    ['concurrency enum', { concurrencyPolicy: 'Sometimes' },
      ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']],
    ['selector in template', { jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: podTemplate() } } },
      ['spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated']],
  ];
  for (const [name, spec, expected] of cases) {
    test(name, () => assert.deepEqual(simulateCreate(cronJobs, cronJob(spec)).errors, expected));
  }

  test('schedule parsing accepts descriptors', () => {
    for (const s of ['@hourly', '@every 1h30m', '0 0 * * MON-FRI', '*/15 9-17 * * *']) assert.equal(cronScheduleError(s), undefined, s);
    assert.equal(cronScheduleError('@fortnightly'), 'unrecognized descriptor: @fortnightly');
  });
});
