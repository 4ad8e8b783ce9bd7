import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { crdOf, type KindDefinition } from '../define-kind.js';
import { applyDefaults, validateAgainstSchema, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import {
  cloneSetKind, daemonSetKind, defaultCloneSet, defaultCloneSetV1alpha1, defaultDaemonSet, defaultStatefulSet,
  defaultStatefulSetV1alpha1, defaultUnitedDeployment, statefulSetKind, unitedDeploymentKind,
  type CloneSet, type CloneSetV1alpha1, type DaemonSet, type DaemonSetV1alpha1, type StatefulSet, type UnitedDeployment,
} from './index.js';

function schemaOf(def: KindDefinition, version: string): JSONSchemaProps {
  const crd = crdOf(def) as unknown as { spec: { versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
  return crd.spec.versions.find((v) => v.name === version)!.schema.openAPIV3Schema;
}

/** What the API server stores after the webhook: CRD defaults applied, schema-valid. */
function stored<T>(def: KindDefinition, version: string, obj: T): T {
  const out = structuredClone(obj);
  applyDefaults(schemaOf(def, version), out);
  assert.deepEqual(validateAgainstSchema(schemaOf(def, version), out), []);
  return out;
}

const template = { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const selector = { matchLabels: { app: 'demo' } };
const cs = (spec: Partial<NonNullable<CloneSet['spec']>> = {}): CloneSet => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'demo' }, spec: { selector, template, ...spec } });

describe('CloneSet defaults', () => {
  test('C2: v1beta1 reads back RollingUpdate with the full rollingUpdate block and enablePVCReuse false', () => {
    const input = cs({ replicas: 3 });
    const before = structuredClone(input);
    const out = stored(cloneSetKind, 'v1beta1', defaultCloneSet(input));
    assert.deepEqual(input, before, 'the input is not mutated');
    assert.equal(out.spec!.replicas, 3);
    assert.equal(out.spec!.revisionHistoryLimit, 10);
    assert.deepEqual(out.spec!.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 } });
    assert.deepEqual(out.spec!.scaleStrategy, { enablePVCReuse: false });
  });

  test('in-place policies get an inPlaceUpdateStrategy; OnDelete gets no rollingUpdate; set values are kept', () => {
    const inPlace = defaultCloneSet(cs({ replicas: 0, updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly', partition: '40%', maxSurge: 1 } } }));
    assert.equal(inPlace.spec!.replicas, 0);
    assert.deepEqual(inPlace.spec!.updateStrategy!.rollingUpdate, { podUpdatePolicy: 'InPlaceOnly', inPlaceUpdateStrategy: {}, partition: '40%', maxUnavailable: '20%', maxSurge: 1 });
    const onDelete = defaultCloneSet(cs({ updateStrategy: { type: 'OnDelete' }, scaleStrategy: { enablePVCReuse: true } }));
    assert.deepEqual(onDelete.spec!.updateStrategy, { type: 'OnDelete' });
    assert.deepEqual(onDelete.spec!.scaleStrategy, { enablePVCReuse: true });
  });

  test('C3: v1alpha1 keeps the flat shape and its type', () => {
    const input: CloneSetV1alpha1 = { metadata: { name: 'demo' }, spec: { selector, template, updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } } };
    const out = stored(cloneSetKind, 'v1alpha1', defaultCloneSetV1alpha1(input));
    assert.deepEqual(out.spec!.updateStrategy, { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: {}, partition: 1, maxUnavailable: '20%', maxSurge: 0 });
    assert.deepEqual(out.spec!.scaleStrategy, {}, 'no disablePVCReuse: conversion turns its absence into enablePVCReuse true');
    assert.equal(defaultCloneSetV1alpha1({ metadata: {}, spec: { selector, template } }).spec!.updateStrategy!.type, 'ReCreate');
  });

  test('defaulting is idempotent and always schema-valid', () => {
    const intOrString = fc.oneof(fc.nat(10), fc.constantFrom('20%', '50%'));
    const arb = fc.record({
      replicas: fc.option(fc.nat(5), { nil: undefined }),
      type: fc.constantFrom(undefined, 'RollingUpdate', 'OnDelete'),
      podUpdatePolicy: fc.constantFrom(undefined, 'ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'),
      partition: fc.option(intOrString, { nil: undefined }),
      maxSurge: fc.option(intOrString, { nil: undefined }),
    });
    fc.assert(fc.property(arb, (r) => {
      const rollingUpdate = JSON.parse(JSON.stringify({ podUpdatePolicy: r.podUpdatePolicy, partition: r.partition, maxSurge: r.maxSurge }));
      const spec = JSON.parse(JSON.stringify({ replicas: r.replicas, updateStrategy: { type: r.type, rollingUpdate } }));
      const once = defaultCloneSet(cs(spec));
      assert.deepEqual(defaultCloneSet(once), once);
      stored(cloneSetKind, 'v1beta1', once);
    }), { numRuns: 200 });
  });
});

describe('Advanced StatefulSet defaults', () => {
  const sts = (spec: Partial<NonNullable<StatefulSet['spec']>> = {}): StatefulSet => ({ metadata: { name: 'web' }, spec: { selector, template, ...spec } });

  test('S2: v1beta1 defaults with the upstream gate defaults', () => {
    const out = stored(statefulSetKind, 'v1beta1', defaultStatefulSet(sts()));
    assert.equal(out.spec!.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(out.spec!.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } });
    assert.deepEqual(out.spec!.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(out.spec!.volumeClaimUpdateStrategy, undefined);
    assert.deepEqual([out.spec!.replicas, out.spec!.revisionHistoryLimit], [1, 10]);
  });

  test('gates switch the retention and claim-update defaults; v1alpha1 only gets shared fields', () => {
    const gated = defaultStatefulSet(sts({ persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } }), { StatefulSetAutoResizePVCGate: true });
    assert.deepEqual(gated.spec!.persistentVolumeClaimRetentionPolicy, { whenScaled: 'Delete', whenDeleted: 'Retain' });
    assert.deepEqual(gated.spec!.volumeClaimUpdateStrategy, { type: 'OnDelete' });
    assert.equal(defaultStatefulSet(sts(), { StatefulSetAutoDeletePVC: false }).spec!.persistentVolumeClaimRetentionPolicy, undefined);
    const alpha = stored(statefulSetKind, 'v1alpha1', defaultStatefulSetV1alpha1({ metadata: {}, spec: { selector, template, updateStrategy: { type: 'OnDelete' } } }));
    assert.deepEqual(alpha.spec, { selector, template, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'OnDelete' }, replicas: 1, revisionHistoryLimit: 10 });
  });
});

describe('Advanced DaemonSet defaults', () => {
  const ads = (updateStrategy?: NonNullable<DaemonSet['spec']>['updateStrategy']): DaemonSet => ({ metadata: { name: 'agent' }, spec: { selector, template, ...(updateStrategy ? { updateStrategy } : {}) } });

  test('D1: Standard with maxUnavailable 1 / maxSurge 0, burst 250, history 10', () => {
    const out = stored(daemonSetKind, 'v1beta1', defaultDaemonSet(ads()));
    assert.deepEqual(out.spec!.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } });
    assert.deepEqual([out.spec!.burstReplicas, out.spec!.revisionHistoryLimit], [250, 10]);
  });

  test('a set maxSurge leaves maxUnavailable unset; OnDelete gets no rollingUpdate', () => {
    assert.deepEqual(defaultDaemonSet(ads({ rollingUpdate: { maxSurge: 1 } })).spec!.updateStrategy!.rollingUpdate, { maxSurge: 1, rollingUpdateType: 'Standard' });
    assert.deepEqual(defaultDaemonSet(ads({ type: 'OnDelete' })).spec!.updateStrategy, { type: 'OnDelete' });
  });

  test('D13: v1alpha1 Surging reads back as Standard with maxSurge 1 and maxUnavailable 0', () => {
    const input: DaemonSetV1alpha1 = { metadata: {}, spec: { selector, template, updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging' } } } };
    const out = stored(daemonSetKind, 'v1alpha1', defaultDaemonSet(input));
    assert.deepEqual(out.spec!.updateStrategy!.rollingUpdate, { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 });
  });
});

describe('UnitedDeployment defaults', () => {
  const ud = (subsets: NonNullable<NonNullable<UnitedDeployment['spec']>['topology']>['subsets']): UnitedDeployment => ({ metadata: { name: 'demo' }, spec: { selector, topology: { subsets } } });

  test('UnitedDeployment defaults: replicas 1, Manual with an empty manualUpdate, history 10', () => {
    const out = stored(unitedDeploymentKind, 'v1beta1', defaultUnitedDeployment(ud([{ name: 'a' }])));
    assert.deepEqual([out.spec!.replicas, out.spec!.revisionHistoryLimit], [1, 10]);
    assert.deepEqual(out.spec!.updateStrategy, { type: 'Manual', manualUpdate: {} });
    assert.deepEqual(out.spec!.topology!.subsets, [{ name: 'a' }]);
  });

  test('minReplicas 0 on every subset only when min/max are used without replicas', () => {
    const capacity = defaultUnitedDeployment(ud([{ name: 'a', maxReplicas: 4 }, { name: 'b' }]));
    assert.deepEqual(capacity.spec!.topology!.subsets, [{ name: 'a', maxReplicas: 4, minReplicas: 0 }, { name: 'b', minReplicas: 0 }]);
    const mixed = defaultUnitedDeployment(ud([{ name: 'a', replicas: 1 }, { name: 'b', maxReplicas: 2 }]));
    assert.deepEqual(mixed.spec!.topology!.subsets, [{ name: 'a', replicas: 1 }, { name: 'b', maxReplicas: 2 }]);
  });
});
