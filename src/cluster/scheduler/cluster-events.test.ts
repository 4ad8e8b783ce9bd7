import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../machinery/clock.js';
import { SchedulerCache } from './cache.js';
import { isResponsible, nodeHandler, podHandler } from './cluster-events.js';
import { SchedulingQueue } from './scheduling-queue.js';
import { makeNode, makePod } from './test-objects.js';

let queue: SchedulingQueue | undefined;
afterEach(() => queue?.shutDown());

describe('isResponsible', () => {
  const cases: [string, ReturnType<typeof makePod>, boolean][] = [
    ['pending, default scheduler', makePod('p'), true],
    ['schedulerName unset means default', (() => { const p = makePod('p'); delete p.spec!.schedulerName; return p; })(), true],
    ['another scheduler', makePod('p', { schedulerName: 'x' }), false],
    ['already bound', makePod('p', { nodeName: 'n1' }), false],
    ['being deleted', { ...makePod('p'), metadata: { name: 'p', namespace: 'default', deletionTimestamp: '2024-01-01T00:00:00Z' } }, false],
    ['gated', makePod('p', { schedulingGates: [{ name: 'wait' }] }), false],
  ];
  for (const [name, pod, want] of cases) test(name, () => assert.equal(isResponsible(pod, 'default-scheduler'), want));
});

describe('event handlers', () => {
  function setup() {
    const clock = new FakeClock();
    queue = new SchedulingQueue({ clock });
    const cache = new SchedulerCache();
    return { clock, cache, q: queue, nodes: nodeHandler(cache, queue), pods: podHandler(cache, queue, 'default-scheduler') };
  }

  test('a node heartbeat releases nothing; a label change does', () => {
    const { q, nodes, clock } = setup();
    const n = makeNode('n1');
    nodes.onAdd!(n);
    q.unschedulable('default/p', false);
    clock.advance(1000);
    const beat = { ...n, status: { ...n.status, conditions: [{ type: 'Ready', status: 'True' as const, lastHeartbeatTime: 'later' }] } };
    nodes.onUpdate!(n, beat);
    assert.equal(q.parkedCount(), 1);
    nodes.onUpdate!(beat, { ...beat, metadata: { ...beat.metadata, labels: { disk: 'ssd' } } });
    assert.equal(q.parkedCount(), 0);
  });

  test('our own status write on a pending pod does not requeue it; a spec change does', () => {
    const { q, pods, clock } = setup();
    const p = makePod('p');
    q.unschedulable('default/p', false);
    clock.advance(1000);
    const withCondition = { ...p, status: { conditions: [{ type: 'PodScheduled', status: 'False' as const }] } };
    pods.onUpdate!(p, withCondition);
    assert.equal(q.parkedCount(), 1);
    pods.onUpdate!(withCondition, { ...withCondition, spec: { ...withCondition.spec, tolerations: [{ operator: 'Exists' as const }] } });
    assert.equal(q.parkedCount(), 0);
  });

  test('bound pods go to the cache; their deletion releases parked pods', () => {
    const { q, pods, cache, clock } = setup();
    cache.setNode(makeNode('n1'));
    const bound = makePod('b', { nodeName: 'n1', cpu: '1' });
    pods.onAdd!(bound);
    assert.equal(cache.nodeInfo('n1')!.requested.milliCpu, 1000);
    q.unschedulable('default/p', false);
    clock.advance(1000);
    pods.onDelete!(bound);
    assert.equal(cache.nodeInfo('n1')!.requested.milliCpu, 0);
    assert.equal(q.parkedCount(), 0);
  });
});
