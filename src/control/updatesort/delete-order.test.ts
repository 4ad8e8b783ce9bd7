import type { Pod } from '../../api/core/index.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PodDeletionCostAnnotation, SpecifiedDeleteLabel } from '../../api/kruise/workloads/labels.js';
import { choosePodsToDelete, isSpecifiedDelete } from './delete-order.js';
import { podDeletionCost } from './pod-facts.js';
import { names, pod, type PodFacts } from './test-kit.js';

const allOld = { isUpdated: () => false, oldDiff: 99 };
const cost = (c: string): PodFacts => ({ annotations: { [PodDeletionCostAnnotation]: c } });

describe('choosePodsToDelete: order within a group', () => {
  const cases: [string, [string, PodFacts][], string[]][] = [
    ['unscheduled first', [['a', { node: 'n1' }], ['b', { node: 'n2' }], ['u', { node: '' }]], ['u']],
    ['Pending before Running', [['run', { node: 'n1' }], ['pend', { node: 'n2', phase: 'Pending' }], ['run2', { node: 'n3' }]], ['pend']],
    ['not ready before ready', [['r', { node: 'n1' }], ['nr', { node: 'n2', ready: false }], ['r2', { node: 'n3' }]], ['nr']],
    ['lower deletion cost first', [['c5', { node: 'n1', ...cost('5') }], ['c-1', { node: 'n2', ...cost('-1') }], ['c0', { node: 'n3' }]], ['c-1']],
    ['deletion cost beats node crowding', [['s1', { node: 'n1' }], ['s2', { node: 'n1' }], ['cheap', { node: 'n2', ...cost('-5') }]], ['cheap']],
    ['pods sharing a node before lone pods', [['lone', { node: 'n1', created: '2024-03-01T00:00:00Z' }], ['s1', { node: 'n2' }], ['s2', { node: 'n2' }]], ['s1']],
    ['ready more recently first', [['old', { node: 'n1' }], ['new', { node: 'n2', readyAt: '2024-05-01T00:00:00Z' }], ['old2', { node: 'n3' }]], ['new']],
    ['more restarts first', [['r0', { node: 'n1' }], ['r3', { node: 'n2', restarts: 3 }], ['r1', { node: 'n3', restarts: 1 }]], ['r3']],
    ['newer first', [['old', { node: 'n1' }], ['new', { node: 'n2', created: '2024-06-01T00:00:00Z' }], ['old2', { node: 'n3' }]], ['new']],
  ];
  for (const [name, specs, want] of cases) {
    test(name, () => assert.deepEqual(names(choosePodsToDelete(specs.map(([n, f]) => pod(n, f)), 1, allOld)), want));
  }

  test('not available before not ready when availability is known', () => {
    const pods = [pod('notready', { node: 'n1', ready: false }), pod('unavailable', { node: 'n2' }), pod('ok', { node: 'n3' })];
    const isAvailable = (p: Pod) => p.metadata.name === 'ok';
    assert.deepEqual(names(choosePodsToDelete(pods, 2, { ...allOld, isAvailable })), ['notready', 'unavailable']);
  });

  test('spread constraints rank the crowded domain first', () => {
    const zones: Record<string, string> = { n1: 'z1', n2: 'z1', n3: 'z2' };
    const pods = [pod('z2', { node: 'n3', created: '2024-09-01T00:00:00Z' }), pod('z1a', { node: 'n1' }), pod('z1b', { node: 'n2' })];
    const options = { ...allOld, spreadConstraints: [{ topologyKey: 'zone' }], nodeLabels: (n: string) => ({ zone: zones[n] }) };
    assert.deepEqual(names(choosePodsToDelete(pods, 1, options)), ['z1a']);
    // without constraints no node is crowded, so the newest pod goes
    assert.deepEqual(names(choosePodsToDelete(pods, 1, allOld)), ['z2']);
  });
});

describe('choosePodsToDelete: old and updated groups', () => {
  const pods = [pod('new1', { node: 'n1', ready: false }), pod('old1', { node: 'n2' }), pod('old2', { node: 'n3', ready: false }), pod('new2', { node: 'n4' })];
  const isUpdated = (p: Pod) => p.metadata.name!.startsWith('new');
  const cases: [string, number, number, string[]][] = [
    ['oldDiff covering diff takes only old pods', 1, 3, ['old2']],
    ['a partial oldDiff takes old then updated pods', 2, 1, ['old2', 'new1']],
    ['oldDiff 0 takes only updated pods', 1, 0, ['new1']],
    ['a group smaller than its share is taken whole', 3, 3, ['old1', 'old2']],
    ['diff 0 deletes nothing', 0, 0, []],
  ];
  for (const [name, diff, oldDiff, want] of cases) {
    test(name, () => assert.deepEqual(names(choosePodsToDelete(pods, diff, { isUpdated, oldDiff })), want));
  }
});

test('podDeletionCost reads only valid int32 values', () => {
  const cases: [string | undefined, number][] = [
    [undefined, 0], ['10', 10], ['-3', -3], ['0', 0], ['+10', 0], ['008', 0], ['1.5', 0], ['', 0], ['2147483648', 0], ['-2147483648', -2147483648],
  ];
  for (const [value, want] of cases) {
    assert.equal(podDeletionCost(pod('p', value === undefined ? {} : cost(value))), want, String(value));
  }
});

test('isSpecifiedDelete: named in podsToDelete or labelled', () => {
  assert.equal(isSpecifiedDelete(pod('a'), ['a']), true);
  assert.equal(isSpecifiedDelete(pod('b', { labels: { [SpecifiedDeleteLabel]: 'true' } })), true);
  assert.equal(isSpecifiedDelete(pod('c'), ['a']), false);
});
