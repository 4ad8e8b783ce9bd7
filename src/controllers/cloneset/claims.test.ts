import type { PodPhase, Pod } from '../../api/core/index.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { handOverPatch, idsForNewPods, planClaims } from './claims.js';

const ID = 'apps.kruise.io/cloneset-instance-id';
const pod = (id: string, opts: { terminating?: boolean; phase?: PodPhase } = {}): Pod => ({
  metadata: { name: `demo-${id}`, uid: `pod-${id}`, labels: { [ID]: id }, ...(opts.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { containers: [] },
  ...(opts.phase ? { status: { phase: opts.phase } } : {}),
});
const claim = (id: string, name = `data-demo-${id}`): KObject => ({
  metadata: { name, uid: `pvc-${name}`, resourceVersion: '7', labels: { [ID]: id }, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'demo', uid: 'cs', controller: true }] },
});
const names = (xs: KObject[]) => xs.map((x) => x.metadata.name);

describe('planClaims', () => {
  const claims = [claim('aaaaa'), claim('bbbbb'), claim('ccccc'), claim('aaaaa', 'logs-demo-aaaaa')];
  test('without reuse: claims of active pods stay, of inactive pods go to the pod, of no pod are deleted', () => {
    const plan = planClaims([pod('aaaaa')], [pod('bbbbb', { terminating: true })], claims, false);
    assert.deepEqual(names(plan.keep), ['data-demo-aaaaa', 'logs-demo-aaaaa']);
    assert.deepEqual(plan.handOver.map(({ claim: c, pod: p }) => [c.metadata.name, p.metadata.name]), [['data-demo-bbbbb', 'demo-bbbbb']]);
    assert.deepEqual(names(plan.remove), ['data-demo-ccccc']);
  });
  test('with reuse nothing is touched and orphans stay available', () => {
    const plan = planClaims([pod('aaaaa')], [], claims, true);
    assert.equal(plan.keep.length, 4);
    assert.deepEqual([plan.handOver.length, plan.remove.length], [0, 0]);
  });
  test('the hand-over swaps the CloneSet ref for a controller ref to the pod, guarded by uid and resourceVersion', () => {
    assert.deepEqual(handOverPatch(claim('bbbbb'), 'cs', pod('bbbbb')), {
      metadata: {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'demo-bbbbb', uid: 'pod-bbbbb', controller: true, blockOwnerDeletion: true }],
        uid: 'pvc-data-demo-bbbbb', resourceVersion: '7',
      },
    });
  });
});

describe('idsForNewPods', () => {
  const zeros = () => 0;
  test('orphan claim ids first (sorted), then fresh ids avoiding every pod and claim id', () => {
    const ids = idsForNewPods(3, [pod('aaaaa')], [claim('ddddd'), claim('ccccc'), claim('aaaaa'), claim('bbbbb')], zeros);
    assert.deepEqual(ids, ['bbbbb', 'ccccc', 'ddddd']);
    // fresh ids: "bbbbb" and "ccccc" are held, "ddddd" is free
    const letters = [0, 1, 2].flatMap((i) => Array<number>(5).fill((i + 0.5) / 27));
    let n = 0;
    assert.deepEqual(idsForNewPods(1, [pod('bbbbb'), pod('ccccc')], [claim('ccccc')], () => letters[n++]!), ['ddddd']);
  });
  test('an id whose claims belong to a terminating pod waits for it: fewer ids come back', () => {
    assert.deepEqual(idsForNewPods(1, [pod('aaaaa', { terminating: true })], [claim('aaaaa')], zeros), []);
    assert.deepEqual(idsForNewPods(1, [pod('aaaaa')], [claim('aaaaa')], zeros), ['bbbbb'], 'a live pod\'s id is never reused');
  });
  test('a finished (not terminating) pod keeps its id but blocks nothing', () => {
    assert.deepEqual(idsForNewPods(1, [pod('aaaaa', { phase: 'Failed' })], [claim('aaaaa')], zeros), ['bbbbb']);
  });
});
