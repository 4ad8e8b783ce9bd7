import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LifecycleStateLabel } from '../../api/kruise/workloads/labels.js';
import { sortPodsToUpdate } from './update-order.js';
import { names, pod, type PodFacts } from './test-kit.js';

describe('sortPodsToUpdate: default ActivePods order', () => {
  const cases: [string, [string, PodFacts][], string[]][] = [
    ['unscheduled first', [['sched', {}], ['unsched', { node: '' }]], ['unsched', 'sched']],
    ['Pending < Unknown < Running', [['run', {}], ['unk', { phase: 'Unknown' }], ['pend', { phase: 'Pending' }]], ['pend', 'unk', 'run']],
    ['not ready before ready', [['ready', {}], ['notready', { ready: false }]], ['notready', 'ready']],
    ['ready more recently first', [['old', { readyAt: '2024-01-01T00:01:00Z' }], ['new', { readyAt: '2024-01-02T00:00:00Z' }]], ['new', 'old']],
    ['more restarts first', [['r1', { restarts: 1 }], ['r5', { restarts: 5 }]], ['r5', 'r1']],
    ['newer first', [['older', { created: '2024-01-01T00:00:00Z' }], ['newer', { created: '2024-02-01T00:00:00Z' }]], ['newer', 'older']],
    ['ties keep the input order', [['x', {}], ['y', {}]], ['x', 'y']],
  ];
  for (const [name, specs, want] of cases) {
    test(name, () => assert.deepEqual(names(sortPodsToUpdate(specs.map(([n, f]) => pod(n, f)), undefined)), want));
  }
});

describe('sortPodsToUpdate: strategies', () => {
  test('priority reorders, ties keep the ActivePods order', () => {
    const pods = [
      pod('ready-hi', { labels: { prio: 'hi' } }), pod('notready-lo', { ready: false }),
      pod('notready-hi', { ready: false, labels: { prio: 'hi' } }), pod('ready-lo'),
    ];
    const strategy = { priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { prio: 'hi' } } }] } };
    assert.deepEqual(names(sortPodsToUpdate(pods, strategy)), ['notready-hi', 'ready-hi', 'notready-lo', 'ready-lo']);
  });

  test('scatter runs after priority', () => {
    const pods = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'].map((n) => pod(n, { labels: { zone: n[0] } }));
    assert.deepEqual(names(sortPodsToUpdate(pods, { scatterStrategy: [{ key: 'zone', value: 'a' }] })),
      ['a1', 'b1', 'b2', 'a2', 'b3', 'a3']);
  });

  test('PreparingUpdate pods come first, whatever the strategies say', () => {
    const pods = [
      pod('hi', { labels: { prio: 'hi' } }), pod('prep', { labels: { [LifecycleStateLabel]: 'PreparingUpdate' } }),
      pod('notready', { ready: false }),
    ];
    const strategy = { priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { prio: 'hi' } } }] } };
    assert.deepEqual(names(sortPodsToUpdate(pods, strategy)), ['prep', 'hi', 'notready']);
  });

  test('the input array is not mutated', () => {
    const pods = [pod('ready'), pod('notready', { ready: false })];
    sortPodsToUpdate(pods, undefined);
    assert.deepEqual(names(pods), ['ready', 'notready']);
  });
});
