import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { activeDiff, podBackoffDelayMs, terminalTarget, wantActive, type JobCounts } from './job-budget.js';
import { formatIndexes, parseIndexes, planIndexes } from './indexes.js';
import { flushUncounted, recordUncounted } from './job-tracking.js';
import { completionIndexAnnotation } from './types.js';
import type { Pod, Job, JobSpec } from '../../../api/core/index.js';

const counts = (c: Partial<JobCounts>): JobCounts => ({ succeeded: 0, failed: 0, active: 0, terminating: 0, restarts: 0, ...c });
const job = (spec: Partial<JobSpec>, status: Job['status'] = {}): Job => ({ metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [] } }, ...spec }, status });

describe('wantActive / activeDiff', () => {
  const cases: [string, Partial<JobSpec>, Partial<JobCounts>, number, number][] = [
    ['parallelism caps a fresh job', { parallelism: 3, completions: 10 }, {}, 3, 3],
    ['the completions left cap it', { parallelism: 3, completions: 10 }, { succeeded: 8 }, 2, 2],
    ['all done: nothing more', { parallelism: 3, completions: 2 }, { succeeded: 2 }, 0, 0],
    ['too many active: delete', { parallelism: 1, completions: 5 }, { active: 3 }, 1, -2],
    ['work queue: after a success, no new pods', { parallelism: 4, completions: undefined }, { succeeded: 1, active: 2 }, 2, 0],
    ['work queue: before any success, parallelism', { parallelism: 4, completions: undefined }, { active: 1 }, 4, 3],
    ['suspended: none', { parallelism: 2, completions: 2, suspend: true }, { active: 2 }, 0, -2],
    ['indexed counts completed indexes', { parallelism: 5, completions: 4, completionMode: 'Indexed' }, { completedIndexes: new Set([0, 3]) }, 2, 2],
    ['Failed replacement: terminating pods hold their slot', { parallelism: 2, completions: 4, podReplacementPolicy: 'Failed' }, { active: 1, terminating: 1 }, 2, 0],
    ['TerminatingOrFailed replaces terminating pods at once', { parallelism: 2, completions: 4 }, { active: 1, terminating: 1 }, 2, 1],
  ];
  for (const [name, spec, c, want, diff] of cases) {
    test(name, () => {
      assert.equal(wantActive(job(spec), counts(c)), want);
      assert.equal(activeDiff(job(spec), counts(c)), diff);
    });
  }
});

describe('terminalTarget', () => {
  const now = Date.parse('2024-01-01T01:00:00Z');
  test('failed pods past backoffLimit', () => {
    assert.equal(terminalTarget(job({ backoffLimit: 2, completions: 1 }), counts({ failed: 2 }), now), undefined);
    assert.equal(terminalTarget(job({ backoffLimit: 2, completions: 1 }), counts({ failed: 3 }), now)?.reason, 'BackoffLimitExceeded');
  });
  test('container restarts count with restartPolicy OnFailure', () => {
    const onFailure = (limit: number): Job => ({ ...job({ backoffLimit: limit, completions: 1 }), spec: { backoffLimit: limit, completions: 1, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } } });
    assert.equal(terminalTarget(onFailure(3), counts({ restarts: 2 }), now), undefined);
    assert.equal(terminalTarget(onFailure(3), counts({ restarts: 3 }), now)?.reason, 'BackoffLimitExceeded');
    assert.equal(terminalTarget(onFailure(0), counts({ restarts: 1 }), now)?.reason, 'BackoffLimitExceeded');
  });
  test('activeDeadlineSeconds from startTime', () => {
    const j = job({ activeDeadlineSeconds: 3600, completions: 1 }, { startTime: '2024-01-01T00:00:01Z' });
    assert.equal(terminalTarget(j, counts({ active: 1 }), now), undefined);
    assert.equal(terminalTarget(j, counts({ active: 1 }), now + 1000)?.reason, 'DeadlineExceeded');
  });
  test('success by completions, or by the first success in a work queue once all pods stop', () => {
    assert.equal(terminalTarget(job({ completions: 2 }), counts({ succeeded: 2 }), now)?.type, 'SuccessCriteriaMet');
    assert.equal(terminalTarget(job({ completions: undefined }), counts({ succeeded: 1, active: 1 }), now), undefined);
    assert.equal(terminalTarget(job({ completions: undefined }), counts({ succeeded: 1 }), now)?.reason, 'CompletionsReached');
    assert.equal(terminalTarget(job({ completions: 2 }), counts({ succeeded: 2, failed: 9 }), now)?.reason, 'BackoffLimitExceeded', 'failure wins');
  });
});

test('podBackoffDelayMs doubles from 10 s up to 10 minutes', () => {
  assert.deepEqual([0, 1, 2, 3, 6, 7, 50].map(podBackoffDelayMs), [0, 10_000, 20_000, 40_000, 320_000, 600_000, 600_000]);
});

describe('indexes', () => {
  test('format and parse the compressed form', () => {
    assert.equal(formatIndexes([5, 0, 1, 2, 7, 8, 10]), '0-2,5,7-8,10');
    assert.equal(formatIndexes([]), '');
    assert.deepEqual([...parseIndexes('0-2,5,7-8,10', 9)], [0, 1, 2, 5, 7, 8]);
  });
  test('planIndexes creates the lowest missing indexes and removes duplicates', () => {
    const pod = (name: string, index: string): Pod => ({ metadata: { name, annotations: { [completionIndexAnnotation]: index } }, spec: { containers: [] } });
    const active = [pod('a', '1'), pod('b', '1'), pod('c', '9'), pod('d', 'x')];
    const plan = planIndexes(active, new Set([0]), 5, 2);
    assert.deepEqual(plan.create, [2, 3]);
    assert.deepEqual(plan.remove.map((p) => p.metadata.name).sort(), ['b', 'c', 'd']);
  });
});

test('uncounted pods are recorded, then flushed into the counters', () => {
  const pod = (uid: string): Pod => ({ metadata: { uid }, spec: { containers: [] } });
  const recorded = recordUncounted({ succeeded: 1, failed: 0 }, [{ pod: pod('a'), as: 'succeeded' }, { pod: pod('b'), as: 'failed' }, { pod: pod('c'), as: 'failed' }]);
  assert.deepEqual(recorded.uncountedTerminatedPods, { succeeded: ['a'], failed: ['b', 'c'] });
  const flushed = flushUncounted(recorded, new Set(['a', 'c']));
  assert.equal(flushed.succeeded, 2);
  assert.equal(flushed.failed, 1);
  assert.deepEqual(flushed.uncountedTerminatedPods, { succeeded: [], failed: ['b'] });
});
