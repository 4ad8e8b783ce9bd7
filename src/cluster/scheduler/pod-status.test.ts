import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unresolvable, unschedulable } from './filters.js';
import { REASON_ANTI_AFFINITY } from './pod-affinity-filter.js';
import { podSensitive } from './fit-error.js';
import { unschedulablePatch } from './pod-status.js';
import { makePod } from './test-objects.js';

const now = Date.parse('2024-05-01T10:00:00Z');

describe('unschedulablePatch', () => {
  test('sets PodScheduled=False with reason and message', () => {
    assert.deepEqual(unschedulablePatch(makePod('p'), 'msg', now), {
      status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'msg', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' }] },
    });
  });
  test('nothing to write when the condition already says so', () => {
    const pod = makePod('p');
    pod.status = { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'msg', lastTransitionTime: '2024-01-01T00:00:00Z' }] };
    assert.equal(unschedulablePatch(pod, 'msg', now), undefined);
  });
  test('a new message keeps the transition time', () => {
    const pod = makePod('p');
    pod.status = { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'old', lastTransitionTime: '2024-01-01T00:00:00Z' }] };
    const patch = unschedulablePatch(pod, 'new', now) as { status: { conditions: { lastTransitionTime: string; message: string }[] } };
    assert.equal(patch.status.conditions[0].lastTransitionTime, '2024-01-01T00:00:00Z');
    assert.equal(patch.status.conditions[0].message, 'new');
  });
});

describe('podSensitive', () => {
  test('only pod affinity and spreading failures', () => {
    assert.equal(podSensitive([unschedulable('Insufficient cpu'), unresolvable("node(s) didn't match Pod's node affinity/selector")]), false);
    assert.equal(podSensitive([unschedulable('Insufficient cpu'), unschedulable(REASON_ANTI_AFFINITY)]), true);
  });
});
