import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SchedulerCache } from './cache.js';
import { makeNode, makePod } from './test-objects.js';

const zone = (name: string, z: string) => makeNode(name, { labels: { 'topology.kubernetes.io/zone': z } });
const owned = (name: string, node: string, owner = 'rs') => { const p = makePod(name, { owner }); p.spec!.nodeName = node; return p; };
const zones = (c: SchedulerCache, owner = 'rs') => Object.fromEntries(c.ownerPodsByZone(`uid-${owner}`));

describe('owner placement indexes', () => {
  test('pods per zone follow pods, node relabels and node deletion', () => {
    const c = new SchedulerCache();
    c.setNode(zone('a1', 'a'));
    c.setNode(zone('b1', 'b'));
    c.setPod(owned('p1', 'a1'));
    c.setPod(owned('p2', 'a1'));
    c.setPod(owned('p3', 'b1'));
    c.setPod(owned('x', 'b1', 'other'));
    assert.deepEqual(zones(c), { a: 2, b: 1 });
    c.setNode(zone('a1', 'c')); // relabelled
    assert.deepEqual(zones(c), { c: 2, b: 1 });
    c.deletePod('default/p3');
    assert.deepEqual(zones(c), { c: 2 });
    c.deleteNode('a1'); // its pods stay cached but no longer count towards a zone
    assert.deepEqual(zones(c), {});
    c.setNode(zone('a1', 'a')); // back again
    assert.deepEqual(zones(c), { a: 2 });
    assert.deepEqual(zones(c, 'other'), { b: 1 });
  });

  test('pods bound before their node appears count once it does', () => {
    const c = new SchedulerCache();
    c.setPod(owned('p1', 'late'));
    assert.deepEqual(zones(c), {});
    c.setNode(zone('late', 'z'));
    assert.deepEqual(zones(c), { z: 1 });
    assert.deepEqual([...c.ownerPodsByNode('uid-rs')].map(([n, count]) => [n.name, count]), [['late', 1]]);
  });

  test('assumed pods count, forgotten ones stop counting', () => {
    const c = new SchedulerCache();
    c.setNode(zone('a1', 'a'));
    c.assume(makePod('p', { owner: 'rs' }), 'a1');
    assert.deepEqual(zones(c), { a: 1 });
    c.forget('default/p');
    assert.deepEqual(zones(c), {});
  });
});
