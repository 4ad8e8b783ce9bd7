import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CloneSetCondition, CloneSetStatus } from '../../api/kruise/workloads/cloneset.js';
import type { CloneSet } from './pods.js';
import { progressingChanged, setCondition, withProgressing } from './progress.js';
import { statusChanged } from './status.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const cs = (spec: Record<string, unknown> = {}): CloneSet =>
  ({ metadata: { name: 'demo' }, spec: { replicas: 3, progressDeadlineSeconds: 10, selector: {}, template: {}, ...spec } }) as unknown as CloneSet;
const status = (s: Partial<CloneSetStatus> = {}): CloneSetStatus => ({
  replicas: 3, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 3, updatedReadyReplicas: 0, updatedAvailableReplicas: 0,
  expectedUpdatedReplicas: 3, updateRevision: 'demo-b', currentRevision: 'demo-a', ...s,
});
const cond = (reason: string, at: number, s = 'True'): CloneSetCondition =>
  ({ type: 'Progressing', status: s, reason, message: 'm', lastUpdateTime: new Date(at).toISOString().replace('.000', ''), lastTransitionTime: new Date(at).toISOString().replace('.000', '') });
const progressing = (r: { conditions: CloneSetCondition[] }) => r.conditions.find((c) => c.type === 'Progressing');

describe('Progressing', () => {
  test('absent without a deadline or with 2147483647; FailedScale is kept', () => {
    const failed: CloneSetCondition = { type: 'FailedScale', status: 'True', message: 'x', lastUpdateTime: '2025-01-01T00:00:00Z' };
    for (const d of [undefined, 2147483647]) {
      const r = withProgressing(cs({ progressDeadlineSeconds: d }), status(), [cond('CloneSetUpdated', t0), failed], t0);
      assert.deepEqual(r.conditions, [failed]);
      assert.equal(r.requeueAfterMs, undefined);
    }
  });
  test('first matching rule: available, paused, partition ready', () => {
    const done = status({ currentRevision: 'demo-b', updatedAvailableReplicas: 3 });
    assert.deepEqual(progressing(withProgressing(cs(), done, [], t0)), {
      type: 'Progressing', status: 'True', reason: 'CloneSetAvailable', message: 'CloneSet is available',
      lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    const paused = cs({ updateStrategy: { rollingUpdate: { paused: true } } });
    assert.deepEqual([progressing(withProgressing(paused, status(), [], t0))?.reason, progressing(withProgressing(paused, status(), [], t0))?.message], ['CloneSetPaused', 'CloneSet is paused']);
    const partition = status({ expectedUpdatedReplicas: 1, updatedReplicas: 1, updatedAvailableReplicas: 1 });
    assert.equal(progressing(withProgressing(cs(), partition, [], t0))?.message, 'CloneSet has been paused due to partition ready');
  });
  test('progressing requeues a second past the deadline, counted from entering CloneSetUpdated', () => {
    const first = withProgressing(cs(), status(), [cond('CloneSetAvailable', t0 - 3_600_000)], t0);
    assert.deepEqual([progressing(first)?.reason, progressing(first)?.message, first.requeueAfterMs], ['CloneSetUpdated', 'CloneSet is progressing', 11_000]);
    assert.equal(progressing(first)?.lastTransitionTime, '2025-12-31T23:00:00Z', 'same status keeps the transition time');
    const later = withProgressing(cs(), status(), first.conditions, t0 + 4_000);
    assert.deepEqual(later.conditions, first.conditions, 'same status and reason keep the timestamps');
    assert.equal(later.requeueAfterMs, 7_000);
  });
  test('past the deadline: False ProgressDeadlineExceeded, and it stays until a rule above matches', () => {
    const out = withProgressing(cs(), status(), [cond('CloneSetUpdated', t0)], t0 + 10_000);
    assert.deepEqual([progressing(out)?.status, progressing(out)?.reason, progressing(out)?.message],
      ['False', 'ProgressDeadlineExceeded', 'CloneSet revision demo-b has timed out progressing']);
    assert.equal(out.requeueAfterMs, undefined);
    assert.equal(progressing(withProgressing(cs(), status(), out.conditions, t0 + 60_000))?.reason, 'ProgressDeadlineExceeded');
    const done = status({ currentRevision: 'demo-b', updatedAvailableReplicas: 3 });
    assert.equal(progressing(withProgressing(cs(), done, out.conditions, t0 + 60_000))?.reason, 'CloneSetAvailable');
  });
  test('setCondition keeps the old entry for same status+reason, the transition time for same status', () => {
    const old = cond('A', t0);
    assert.equal(setCondition([old], cond('A', t0 + 5_000))[0], old);
    assert.equal(setCondition([old], cond('B', t0 + 5_000))[0]!.lastTransitionTime, old.lastTransitionTime);
    assert.notEqual(setCondition([old], cond('B', t0 + 5_000, 'False'))[0]!.lastTransitionTime, old.lastTransitionTime);
  });
  test('a Progressing change forces a status write; FailedScale alone does not', () => {
    assert.ok(progressingChanged([], [cond('CloneSetUpdated', t0)]));
    assert.ok(progressingChanged([cond('CloneSetUpdated', t0)], [cond('ProgressDeadlineExceeded', t0, 'False')]));
    assert.ok(!progressingChanged([cond('CloneSetUpdated', t0)], [cond('CloneSetUpdated', t0 + 1_000)]));
    const base = status();
    assert.ok(statusChanged(base, { ...base, conditions: [cond('CloneSetUpdated', t0)] }));
    assert.ok(!statusChanged(base, { ...base, conditions: [{ type: 'FailedScale', status: 'True', lastUpdateTime: '2025-01-01T00:00:00Z' }] }));
  });
});
