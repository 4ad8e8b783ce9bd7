import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../meta.js';
import { convertKruiseObject } from './index.js';
import { assertSchemaValid, deepFreeze, manifest, roundTrip } from './test-kit.js';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';
// any: the assertions walk converted JSON of several shapes.
type Obj = KObject & Record<string, any>;

describe('Advanced StatefulSet', () => {
  /** docs/design/advanced-statefulset.md §12 STS with the v1beta1-only fields set. */
  const beta = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 3
  serviceName: web
  podManagementPolicy: Parallel
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {readinessGates: [{conditionType: InPlaceUpdateReady}], containers: [{name: app, image: nginx:1.25-alpine}]}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      partition: 1
      maxUnavailable: 2
      podUpdatePolicy: InPlaceIfPossible
      minReadySeconds: 10
      inPlaceUpdateStrategy: {gracePeriodSeconds: 2}
      unorderedUpdate: {priorityStrategy: {weightPriority: [{weight: 50, matchSelector: {matchLabels: {canary: "true"}}}]}}
  revisionHistoryLimit: 10
  reserveOrdinals: [1, "3-4"]
  lifecycle: {preDelete: {labelsHandler: {example.io/hold: "true"}}}
  scaleStrategy: {maxUnavailable: 2}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Delete}
  ordinals: {start: 10}
  volumeClaimUpdateStrategy: {type: OnDelete}
status:
  observedGeneration: 1
  replicas: 3
  readyReplicas: 3
  availableReplicas: 3
  currentReplicas: 3
  updatedReplicas: 3
  updatedReadyReplicas: 3
  updatedAvailableReplicas: 3
  currentRevision: web-1
  updateRevision: web-1
  labelSelector: app=web
  volumeClaims: [{volumeClaimName: data, compatibleReplicas: 3, compatibleReadyReplicas: 3}]
`));
  const betaOnly = ['reserveOrdinals', 'lifecycle', 'scaleStrategy', 'persistentVolumeClaimRetentionPolicy', 'ordinals', 'volumeClaimUpdateStrategy'];

  test('v1beta1 → v1alpha1 drops the v1beta1-only fields and keeps minReadySeconds under rollingUpdate', () => {
    const alpha = convertKruiseObject(beta, ALPHA) as Obj;
    for (const f of betaOnly) assert.equal(alpha.spec[f], undefined, f);
    for (const f of ['updatedReadyReplicas', 'updatedAvailableReplicas', 'volumeClaims']) assert.equal(alpha.status[f], undefined, f);
    assert.equal(alpha.spec.updateStrategy.rollingUpdate.minReadySeconds, 10);
    assert.equal(alpha.spec.minReadySeconds, undefined);
    assert.deepEqual(alpha.spec.updateStrategy, (beta.spec as Obj).updateStrategy);
    assertSchemaValid(alpha);
  });

  test('a v1alpha1 write of such an object loses those fields', () => {
    const rewritten = roundTrip(beta, ALPHA) as Obj;
    assert.equal(rewritten.spec.reserveOrdinals, undefined);
    const common = structuredClone(beta) as Obj;
    for (const f of betaOnly) delete common.spec[f];
    for (const f of ['updatedReadyReplicas', 'updatedAvailableReplicas', 'volumeClaims']) delete common.status[f];
    assert.deepEqual(rewritten, common);
  });

  test('v1alpha1 → v1beta1 → v1alpha1 is the identity', () => {
    const alpha = deepFreeze(convertKruiseObject(beta, ALPHA));
    const hub = convertKruiseObject(alpha, BETA);
    assert.deepEqual({ ...hub, apiVersion: ALPHA }, alpha);
    assertSchemaValid(hub);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });
});

describe('Advanced DaemonSet', () => {
  const alpha = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: DaemonSet
metadata: {name: agent, annotations: {daemonset.kruise.io/progressive-create-pod: "true"}}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: nginx:1.25-alpine}]}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {rollingUpdateType: InPlaceIfPossible, maxUnavailable: 2, partition: 1, paused: false, selector: {matchLabels: {canary: "true"}}}
  minReadySeconds: 3
  burstReplicas: 250
  revisionHistoryLimit: 10
  lifecycle: {preDelete: {labelsHandler: {example.io/hold: "true"}}}
status:
  currentNumberScheduled: 4
  numberMisscheduled: 0
  desiredNumberScheduled: 4
  numberReady: 4
  observedGeneration: 2
  updatedNumberScheduled: 4
  numberAvailable: 4
  numberUnavailable: 0
  daemonSetHash: 6d5f8b7c9
`));

  test('the progressive-create-pod annotation becomes partitionedScaling, daemonSetHash becomes updateRevision', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.spec.scaleStrategy, { partitionedScaling: true });
    assert.equal(beta.metadata.annotations, undefined);
    assert.equal(beta.status.updateRevision, '6d5f8b7c9');
    assert.equal(beta.status.daemonSetHash, undefined);
    assert.deepEqual(beta.spec.updateStrategy, (alpha.spec as Obj).updateStrategy);
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });

  test('D13: deprecated Surging reads back as Standard with maxSurge 1 and maxUnavailable 0', () => {
    const surging = { ...alpha, spec: { ...(alpha.spec as Obj), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Surging' } } } };
    const beta = convertKruiseObject(surging, BETA) as Obj;
    assert.deepEqual(beta.spec.updateStrategy.rollingUpdate, { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 });
    const explicit = { ...alpha, spec: { ...(alpha.spec as Obj), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Surging', maxSurge: '20%' } } } };
    assert.deepEqual((convertKruiseObject(explicit, BETA) as Obj).spec.updateStrategy.rollingUpdate, { rollingUpdateType: 'Standard', maxSurge: '20%', maxUnavailable: 0 });
  });

  test('v1beta1 → v1alpha1 → v1beta1 is the identity', () => {
    const beta = deepFreeze(convertKruiseObject(alpha, BETA));
    const back = convertKruiseObject(beta, ALPHA) as Obj;
    assert.equal(back.metadata.annotations?.['daemonset.kruise.io/progressive-create-pod'], 'true');
    assert.equal(back.spec.scaleStrategy, undefined);
    assertSchemaValid(back);
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
    const { updateRevision: _, ...statusWithoutRevision } = beta.status as Obj;
    const noStatusHash = deepFreeze({ ...beta, status: statusWithoutRevision });
    assert.equal((convertKruiseObject(noStatusHash, ALPHA) as Obj).status.daemonSetHash, '');
    assert.deepEqual(roundTrip(noStatusHash, ALPHA), noStatusHash);
  });
});
