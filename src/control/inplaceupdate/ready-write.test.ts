import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markInPlaceUpdateReady } from './conditions.js';
import { readyStatusPatch } from './ready-write.js';
import { runningPod } from './test-kit.js';
import type { Pod } from '../../api/core/index.js';

const observed = (): Pod => {
  const p = runningPod([{ name: 'app', image: 'nginx:1.25' }], { annotations: { keep: 'y', drop: 'y' } });
  p.status!.conditions = p.status!.conditions!.filter((c) => c.type !== 'InPlaceUpdateReady');
  return p;
};

test('the missing-condition write: the condition and onReady\'s label and annotation changes, or the whole pod', () => {
  const now = new Date('2024-05-01T10:00:00Z');
  const bare = markInPlaceUpdateReady(observed(), now)!;
  assert.deepEqual(readyStatusPatch(observed(), bare), { status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' }] } });
  const moved = markInPlaceUpdateReady(observed(), now)!;
  moved.metadata.labels = { ...moved.metadata.labels, state: 'Normal' };
  delete moved.metadata.annotations!.drop;
  assert.deepEqual((readyStatusPatch(observed(), moved) as { metadata: unknown }).metadata, { labels: { state: 'Normal' }, annotations: { drop: null } });
  const marked = markInPlaceUpdateReady(observed(), now)!;
  marked.status!.conditions!.push({ type: 'KruisePodReady', status: 'True' });
  assert.equal(readyStatusPatch(observed(), marked), undefined, 'another condition changed: write the pod whole');
});
