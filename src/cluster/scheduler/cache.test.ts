import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SchedulerCache } from './cache.js';
import { makeNode, makePod } from './test-objects.js';

const bound = (name: string, node: string, cpu = '1') => { const p = makePod(name, { cpu }); p.spec!.nodeName = node; return p; };

describe('SchedulerCache', () => {
  test('bound pods add to their node, deletes subtract', () => {
    const c = new SchedulerCache();
    c.setNode(makeNode('n1'));
    c.setPod(bound('a', 'n1'));
    c.setPod(bound('b', 'n1', '500m'));
    assert.equal(c.nodeInfo('n1')!.requested.milliCpu, 1500);
    c.deletePod('default/a');
    assert.equal(c.nodeInfo('n1')!.requested.milliCpu, 500);
  });
  test('an assumed pod counts until confirmed, and confirmation does not double it', () => {
    const c = new SchedulerCache();
    c.setNode(makeNode('n1'));
    const pending = makePod('a', { cpu: '1' });
    c.assume(pending, 'n1');
    assert.equal(c.isAssumed('default/a'), true);
    assert.equal(c.nodeInfo('n1')!.requested.milliCpu, 1000);
    c.setPod(pending); // a stale unbound update leaves the reservation alone
    assert.equal(c.nodeInfo('n1')!.requested.milliCpu, 1000);
    c.setPod(bound('a', 'n1'));
    assert.equal(c.isAssumed('default/a'), false);
    assert.equal(c.nodeInfo('n1')!.requested.milliCpu, 1000);
    c.forget('default/a'); // confirmed pods are not forgotten
    assert.equal(c.nodeInfo('n1')!.pods.size, 1);
  });
  test('forget drops a failed reservation', () => {
    const c = new SchedulerCache();
    c.setNode(makeNode('n1'));
    c.assume(makePod('a', { cpu: '1' }), 'n1');
    c.forget('default/a');
    assert.equal(c.nodeInfo('n1')!.requested.milliCpu, 0);
    assert.equal(c.nodeOf('default/a'), undefined);
  });
  test('pods bound to an unknown node count once the node appears; terminal pods leave', () => {
    const c = new SchedulerCache();
    c.setPod(bound('a', 'late'));
    assert.equal(c.nodes.length, 0);
    c.setNode(makeNode('late'));
    assert.equal(c.nodes.length, 1);
    assert.equal(c.nodes[0].requested.milliCpu, 1000);
    c.setPod({ ...bound('a', 'late'), status: { phase: 'Succeeded' } });
    assert.equal(c.nodes[0].requested.milliCpu, 0);
  });
  test('a deleted node stops being a candidate', () => {
    const c = new SchedulerCache();
    c.setNode(makeNode('n1'));
    c.setNode(makeNode('n2'));
    c.deleteNode('n1');
    assert.deepEqual(c.nodes.map((n) => n.name), ['n2']);
  });
  test('nodes with pods of an owner are indexed', () => {
    const c = new SchedulerCache();
    c.setNode(makeNode('n1'));
    c.setNode(makeNode('n2'));
    const owned = (name: string, node: string) => { const p = makePod(name, { owner: 'rs' }); p.spec!.nodeName = node; return p; };
    c.setPod(owned('a', 'n1'));
    c.setPod(owned('b', 'n1'));
    c.setPod(owned('c', 'n2'));
    assert.deepEqual([...c.ownerPodsByNode('uid-rs').keys()].map((n) => n.name).sort(), ['n1', 'n2']);
    c.deletePod('default/a');
    assert.deepEqual([...c.ownerPodsByNode('uid-rs').keys()].map((n) => n.name).sort(), ['n1', 'n2']);
    c.deletePod('default/b');
    assert.deepEqual([...c.ownerPodsByNode('uid-rs').keys()].map((n) => n.name), ['n2']);
    c.deletePod('default/c');
    assert.deepEqual([...c.ownerPodsByNode('uid-rs').keys()], []);
  });

  test('affinity counters follow pods', () => {
    const c = new SchedulerCache();
    c.setNode(makeNode('n1'));
    const anti = makePod('a', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: {} }] } } });
    anti.spec!.nodeName = 'n1';
    c.setPod(anti);
    assert.equal(c.anyRequiredAntiAffinity, true);
    c.deletePod('default/a');
    assert.equal(c.anyRequiredAntiAffinity, false);
    assert.equal(c.anyPodAffinity, false);
  });
});
