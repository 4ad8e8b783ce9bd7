import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unresolvable, unschedulable } from './filters.js';
import { fitErrorMessage } from './fit-error.js';

describe('fitErrorMessage', () => {
  test('kube-scheduler format with counted, sorted reasons and the preemption summary', () => {
    const msg = fitErrorMessage(3, [
      unresolvable("node(s) didn't match Pod's node affinity/selector"),
      unschedulable('Insufficient cpu'),
      unschedulable('Insufficient cpu'),
    ]);
    assert.equal(msg, "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu. "
      + 'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
  });
  test('a node failing on two resources counts in both', () => {
    const msg = fitErrorMessage(1, [unschedulable('Insufficient cpu', 'Insufficient memory')]);
    assert.equal(msg, '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.');
  });
  test('sorted as strings, like Go', () => {
    const statuses = [...Array(10).fill(unresolvable('b')), unresolvable('a'), unresolvable('a')];
    assert.match(fitErrorMessage(12, statuses), /available: 10 b, 2 a\. preemption: 0\/12 nodes are available: 12 Preemption/);
  });
  test('no nodes', () => assert.equal(fitErrorMessage(0, []), 'no nodes available to schedule pods'));
});
