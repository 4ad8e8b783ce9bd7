import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { claimCompatible, volumeClaimsStatus } from './claim-resize.js';
import { claimOwnersUpdate, isStaleClaim, newClaim, retentionPolicy, wantedOwners } from './claims.js';
import { pod, set } from './test-kit.js';
import type { Claim } from './types.js';

const template = { metadata: { name: 'data', labels: { tier: 'db' } }, spec: { resources: { requests: { storage: '1Gi' } } } };
const claim = (refs: Claim['metadata']['ownerReferences'] = [], storage = '1Gi'): Claim =>
  ({ metadata: { name: 'data-web-1', namespace: 'ns', ownerReferences: refs }, spec: { resources: { requests: { storage } } } });
const setRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'set-uid' };
const podRef = { apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'uid-web-1' };

describe('claims and retention', () => {
  test('who owns a claim under each policy', () => {
    const table: [string, string, boolean, { set: boolean; pod: boolean }][] = [
      ['Retain', 'Retain', false, { set: false, pod: false }],
      ['Delete', 'Retain', false, { set: true, pod: false }],
      ['Retain', 'Delete', false, { set: false, pod: false }],
      ['Retain', 'Delete', true, { set: false, pod: true }],
      ['Delete', 'Delete', true, { set: false, pod: true }],
      ['Delete', 'Delete', false, { set: true, pod: false }],
    ];
    for (const [whenDeleted, whenScaled, condemned, want] of table) assert.deepEqual(wantedOwners({ whenDeleted, whenScaled }, condemned), want);
  });

  test('owner references are added and removed; other owners are kept; nothing to do returns undefined', () => {
    const s = set({ persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } });
    const policy = retentionPolicy(s, true)!;
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'x' };
    assert.deepEqual(claimOwnersUpdate(claim([other]), s, pod('web-1'), policy, true), [other, podRef]);
    assert.deepEqual(claimOwnersUpdate(claim([podRef, setRef]), s, pod('web-1'), policy, false), []);
    assert.equal(claimOwnersUpdate(claim([podRef]), s, pod('web-1'), policy, true), undefined);
    assert.equal(retentionPolicy(s, false), undefined);
  });

  test('a claim owned by an older pod of the same name is stale', () => {
    assert.equal(isStaleClaim(claim([{ ...podRef, uid: 'older' }]), pod('web-1')), true);
    assert.equal(isStaleClaim(claim([podRef]), pod('web-1')), false);
    assert.equal(isStaleClaim(claim([podRef]), { ...pod('web-1'), metadata: { name: 'web-1' } }), true);
  });

  test('a new claim: name, claim labels plus selector labels, the set as owner only for whenDeleted=Delete', () => {
    const s = set({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } });
    const c = newClaim(s, template, 3, retentionPolicy(s, true));
    assert.equal(c.metadata.name, 'data-web-3');
    assert.deepEqual(c.metadata.labels, { tier: 'db', app: 'web' });
    assert.deepEqual(c.metadata.ownerReferences, [setRef]);
    assert.equal(newClaim(set(), template, 3, retentionPolicy(set(), true)).metadata.ownerReferences, undefined);
  });

  test('resize: compatible claims request at least the template storage', () => {
    assert.equal(claimCompatible(claim([], '2Gi'), template), true);
    assert.equal(claimCompatible(claim([], '512Mi'), template), false);
    assert.equal(claimCompatible(undefined, template), false);
    const s = set({ volumeClaimTemplates: [template] });
    const status = volumeClaimsStatus(s, [pod('web-0'), pod('web-1', { ready: false }), undefined], (name) => (name === 'data-web-1' ? claim() : claim([], '1Mi')));
    assert.deepEqual(status, [{ volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 0 }]);
  });
});
