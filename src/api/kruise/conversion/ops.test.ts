import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../meta.js';
import { scenarioExamples } from '../ops/scenario-examples.fixture.js';
import { moreScenarioExamples } from '../ops/scenario-examples-2.fixture.js';
import { convertKruiseObject } from './index.js';
import { assertSchemaValid, deepFreeze, manifest, roundTrip } from './test-kit.js';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';
// any: the assertions walk converted JSON of several shapes.
type Obj = KObject & Record<string, any>;

function example(name: string) {
  const found = [...scenarioExamples, ...moreScenarioExamples].find((e) => e.name === name);
  assert.ok(found, `fixture ${name}`);
  return deepFreeze(manifest(found.yaml));
}

describe('SidecarSet', () => {
  const alpha = example('SidecarSet v1alpha1 with namespace and every strategy');

  test('namespace becomes a namespaceSelector on kubernetes.io/metadata.name (and wins); the label becomes customVersion', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.spec.namespaceSelector, { matchLabels: { 'kubernetes.io/metadata.name': 'ns-a' } });
    assert.equal(beta.spec.namespace, undefined);
    assert.equal(beta.spec.customVersion, 'v2');
    assert.equal(beta.metadata.labels, undefined);
    assert.deepEqual(beta.metadata.annotations, (alpha.metadata as Obj).annotations);
    assert.deepEqual(beta.spec.containers, (alpha.spec as Obj).containers);
    assertSchemaValid(beta);
  });

  test('back in v1alpha1 the selector is copied, namespace stays empty, customVersion is the label again (documented loss)', () => {
    const back = roundTrip(alpha, BETA) as Obj;
    assert.equal(back.spec.namespace, undefined);
    assert.deepEqual(back.spec.namespaceSelector, { matchLabels: { 'kubernetes.io/metadata.name': 'ns-a' } });
    assert.deepEqual(back.metadata.labels, { 'apps.kruise.io/sidecarset-custom-version': 'v2' });
    const { namespace: _, namespaceSelector: __, ...rest } = alpha.spec as Obj;
    const { namespace: _n, namespaceSelector: _s, ...backRest } = back.spec;
    assert.deepEqual(backRest, rest);
  });

  test('without spec.namespace both directions are lossless', () => {
    const { namespace: _, ...spec } = alpha.spec as Obj;
    const noNamespace = deepFreeze({ ...alpha, spec });
    assert.deepEqual(roundTrip(noNamespace, BETA), noNamespace);
    const beta = example('SidecarSet v1beta1 with customVersion and order priority');
    const asAlpha = convertKruiseObject(beta, ALPHA) as Obj;
    assert.equal(asAlpha.metadata.labels?.['apps.kruise.io/sidecarset-custom-version'], 'v3');
    assert.equal(asAlpha.spec.customVersion, undefined);
    assertSchemaValid(asAlpha);
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
  });
});

describe('ContainerRecreateRequest', () => {
  const snapshot = '[{"name":"app","ready":true,"restartCount":1,"containerID":"containerd://def"}]';
  const alpha = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: ContainerRecreateRequest
metadata:
  name: crr-1
  namespace: t
  labels: {crr.apps.kruise.io/pod-uid: u1, crr.apps.kruise.io/node-name: n1}
  annotations:
    crr.apps.kruise.io/unready-acquired: "2024-01-01T00:00:00Z"
    crr.apps.kruise.io/sync-container-statuses: '${snapshot}'
spec:
  podName: p1
  containers: [{name: app, statusContext: {containerID: "containerd://abc", restartCount: 0}}]
  strategy: {unreadyGracePeriodSeconds: 3}
status: {phase: Recreating, containerRecreateStates: [{name: app, phase: Recreating}]}
`));

  test('the two annotations become status.containerStatusSnapshot and the PreRecreateGrace condition', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.status.containerStatusSnapshot, [{ name: 'app', ready: true, restartCount: 1, containerID: 'containerd://def' }]);
    assert.deepEqual(beta.status.conditions, [
      { type: 'PreRecreateGrace', status: 'True', reason: 'PreRecreateGrace', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' },
    ]);
    assert.equal(beta.metadata.annotations, undefined);
    assert.equal(beta.status.phase, 'Recreating');
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });

  test('v1beta1 status reads back as the annotations, the time in RFC 3339 UTC', () => {
    const beta = example('ContainerRecreateRequest v1beta1 status');
    const asAlpha = convertKruiseObject(beta, ALPHA) as Obj;
    assert.equal(asAlpha.metadata.annotations?.['crr.apps.kruise.io/sync-container-statuses'], snapshot);
    assert.equal(asAlpha.metadata.annotations?.['crr.apps.kruise.io/unready-acquired'], '2024-01-01T00:00:00Z');
    assert.equal(asAlpha.status.conditions, undefined);
    assertSchemaValid(asAlpha);
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
    const offset = { ...alpha, metadata: { ...(alpha.metadata as Obj), annotations: { 'crr.apps.kruise.io/unready-acquired': '2024-01-01T08:00:00.5+08:00' } } };
    const normalized = roundTrip(offset, BETA) as Obj;
    assert.equal(normalized.metadata.annotations?.['crr.apps.kruise.io/unready-acquired'], '2024-01-01T00:00:00Z');
  });

  test('unparsable annotations stay annotations', () => {
    const bad = { ...alpha, metadata: { name: 'x', annotations: { 'crr.apps.kruise.io/sync-container-statuses': '{oops', 'crr.apps.kruise.io/unready-acquired': 'yesterday' } } };
    const beta = convertKruiseObject(bad, BETA) as Obj;
    assert.deepEqual(beta.metadata.annotations, bad.metadata.annotations);
    assert.equal(beta.status.containerStatusSnapshot, undefined);
    assert.equal(beta.status.conditions, undefined);
  });
});

describe('AdvancedCronJob', () => {
  test('v1alpha1 ⇄ v1beta1 only changes apiVersion', () => {
    const alpha = example('AdvancedCronJob v1alpha1 with a Job template');
    const beta = convertKruiseObject(alpha, BETA);
    assert.deepEqual({ ...beta, apiVersion: ALPHA }, alpha);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });

  test('v1beta1 → v1alpha1 fails when imageListPullJobTemplate is set', () => {
    const beta = example('AdvancedCronJob v1beta1 with an ImageListPullJob template');
    assert.throws(() => convertKruiseObject(beta, ALPHA), {
      name: 'ConversionError',
      message: 'AdvancedCronJob t/acj-i: cannot convert apps.kruise.io/v1beta1 to apps.kruise.io/v1alpha1: '
        + 'spec.template.imageListPullJobTemplate is not supported by apps.kruise.io/v1alpha1 (use v1beta1)',
    });
  });
});

describe('NodeImage', () => {
  test('v1beta1 → v1alpha1 drops pullSecrets[].mode at image and tag level; the rest round-trips', () => {
    const beta = example('NodeImage v1beta1 hand-written tag');
    const withTagSecret = structuredClone(beta) as Obj;
    withTagSecret.spec.images.nginx.tags[0].pullSecrets = [{ name: 'reg-2', namespace: 'ns', mode: 'batch' }];
    const alpha = convertKruiseObject(withTagSecret, ALPHA) as Obj;
    assert.deepEqual(alpha.spec.images.nginx.pullSecrets, [{ namespace: 'kruise-daemon-config', name: 'reg-abcdef' }]);
    assert.deepEqual(alpha.spec.images.nginx.tags[0].pullSecrets, [{ name: 'reg-2', namespace: 'ns' }]);
    assertSchemaValid(alpha);
    const withoutMode = structuredClone(withTagSecret);
    delete withoutMode.spec.images.nginx.pullSecrets[0].mode;
    delete withoutMode.spec.images.nginx.tags[0].pullSecrets[0].mode;
    assert.deepEqual(roundTrip(withTagSecret, ALPHA), withoutMode);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });
});

describe('kinds with one schema for both versions', () => {
  for (const name of ['BroadcastJob v1alpha1, Never, Pause, percent parallelism', 'ImagePullJob v1alpha1 with selectors and policies', 'ImageListPullJob']) {
    test(`${name}: only apiVersion changes`, () => {
      const obj = example(name);
      const other = obj.apiVersion === ALPHA ? BETA : ALPHA;
      const converted = convertKruiseObject(obj, other);
      assert.equal(converted.apiVersion, other);
      assert.deepEqual({ ...converted, apiVersion: obj.apiVersion }, obj);
    });
  }
});
