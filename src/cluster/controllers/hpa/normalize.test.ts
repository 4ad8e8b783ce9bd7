/**
 * The HPA's normalization on a fake clock (docs/design/autoscaling.md §5): the default 5 minute
 * downscale window holds the highest recommendation until it has passed, the scale-up limit, and
 * behavior policies limiting changes per period.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../machinery/clock.js';
import { Normalizer } from './normalize.js';
import { calculateReplicas } from './replica-calculator.js';
import type { Pod } from '../../../api/core/index.js';

const sec = 1000;

test('without behavior: scale-down waits for the 5 minute window; scale-up is limited to max(2x, 4)', () => {
  const clock = new FakeClock();
  const n = new Normalizer(clock, 300 * sec);
  n.seed('a', 5);
  const step = (current: number, desired: number) => n.normalize({ key: 'a', current, desired, min: 1, max: 20 });
  const held = step(5, 2);
  assert.deepEqual([held.replicas, held.ableToScale.reason, held.scalingLimited.reason], [5, 'ScaleDownStabilized', 'DesiredWithinRange']);
  clock.advance(299 * sec);
  assert.equal(step(5, 2).replicas, 5);
  clock.advance(2 * sec);
  const down = step(5, 2);
  assert.deepEqual([down.replicas, down.ableToScale.reason], [2, 'ReadyForNewScale']);
  const up = step(2, 15);
  assert.deepEqual([up.replicas, up.scalingLimited.status, up.scalingLimited.reason], [4, 'True', 'ScaleUpLimit']);
});

test('with behavior: the scale-up window takes the lowest recent recommendation, policies limit per period', () => {
  const clock = new FakeClock();
  const n = new Normalizer(clock, 300 * sec);
  const behavior = {
    scaleUp: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 2, periodSeconds: 30 }] },
    scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 50, periodSeconds: 30 }] },
  };
  n.seed('b', 2);
  const step = (current: number, desired: number) => n.normalize({ key: 'b', current, desired, min: 1, max: 10, behavior });
  const first = step(2, 8);
  assert.deepEqual([first.replicas, first.ableToScale.reason], [2, 'ScaleUpStabilized'], 'the seeded 2 is within the 60 s window');
  clock.advance(61 * sec);
  const limited = step(2, 8);
  assert.deepEqual([limited.replicas, limited.scalingLimited.reason], [4, 'ScaleUpLimit']);
  n.scaled('b', 2, 4);
  clock.advance(10 * sec);
  assert.equal(step(4, 8).replicas, 4, 'the 2 pods of this 30 s period are used up');
  clock.advance(21 * sec);
  assert.equal(step(4, 8).replicas, 6);
  const down = step(8, 1);
  assert.deepEqual([down.replicas, down.scalingLimited.reason], [4, 'ScaleDownLimit'], 'at most half per 30 s');
});

test('replica calculator: tolerance, missing metrics on a scale-down, unready pods on a scale-up', () => {
  const pod = (name: string, ready = true, phase = 'Running'): Pod => ({
    metadata: { name, namespace: 'd' }, spec: { containers: [{ name: 'app', image: 'x' }] },
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  } as Pod);
  const u = { utilization: 50 };
  assert.equal(calculateReplicas(2, [{ pod: pod('a'), usage: 53, request: 100 }, { pod: pod('b'), usage: 53, request: 100 }], u, 'cpu').replicas, 2, 'within 10%');
  assert.equal(calculateReplicas(2, [{ pod: pod('a'), usage: 100, request: 100 }, { pod: pod('b'), usage: 100, request: 100 }], u, 'cpu').replicas, 4);
  // one pod without metrics counts at target on a scale-down: (10 + 50) / 200 = 30% -> ceil(0.6 * 2) = 2
  assert.equal(calculateReplicas(2, [{ pod: pod('a'), usage: 10, request: 100 }, { pod: pod('b'), request: 100 }], u, 'cpu').replicas, 2);
  // an unready pod counts as idle on a scale-up: (200 + 0) / 200 = 100% -> ceil(2 * 2) = 4
  const calc = calculateReplicas(2, [{ pod: pod('a'), usage: 200, request: 100 }, { pod: pod('b', false), usage: 500, request: 100 }], u, 'cpu');
  assert.deepEqual([calc.replicas, calc.utilization], [4, 200]);
  assert.throws(() => calculateReplicas(1, [{ pod: pod('a'), usage: 10 }], u, 'cpu'), /missing request for cpu in container app of Pod a/);
});
