import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../meta.js';
import { moreScenarioExamples } from '../ops/scenario-examples-2.fixture.js';
import { specExamples } from '../ops/spec-examples.fixture.js';
import { convertKruiseObject } from './index.js';
import { assertSchemaValid, deepFreeze, manifest, roundTrip } from './test-kit.js';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';
const PUB_ALPHA = 'policy.kruise.io/v1alpha1';
const PUB_BETA = 'policy.kruise.io/v1beta1';
// any: the assertions walk converted JSON of several shapes.
type Obj = KObject & Record<string, any>;

function example(name: string) {
  const found = [...specExamples, ...moreScenarioExamples].find((e) => e.name === name);
  assert.ok(found, `fixture ${name}`);
  return deepFreeze(manifest(found.yaml));
}

describe('PodUnavailableBudget', () => {
  const alpha = example('PodUnavailableBudget v1alpha1 annotations');

  test('the annotations read back via v1beta1 as protectOperations / protectTotalReplicas', () => {
    const beta = convertKruiseObject(alpha, PUB_BETA) as Obj;
    assert.deepEqual(beta.spec.protectOperations, ['EVICT']);
    assert.equal(beta.spec.protectTotalReplicas, 3);
    assert.equal(beta.metadata.annotations, undefined);
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, PUB_BETA), alpha);
  });

  test('a comma list with spaces is accepted; v1alpha1 gets it back canonical', () => {
    const spaced = { ...alpha, metadata: { name: 'p', annotations: { 'kruise.io/pub-protect-operations': 'DELETE, EVICT,' } } };
    const beta = convertKruiseObject(spaced, PUB_BETA) as Obj;
    assert.deepEqual(beta.spec.protectOperations, ['DELETE', 'EVICT']);
    assert.equal((convertKruiseObject(beta, PUB_ALPHA) as Obj).metadata.annotations?.['kruise.io/pub-protect-operations'], 'DELETE,EVICT');
  });

  test('an invalid operation token or replica count is a conversion error', () => {
    const badOp = { ...alpha, metadata: { name: 'p', namespace: 'pb1', annotations: { 'kruise.io/pub-protect-operations': 'DELETE,KILL' } } };
    assert.throws(() => convertKruiseObject(badOp, PUB_BETA), {
      name: 'ConversionError',
      message: 'PodUnavailableBudget pb1/p: cannot convert policy.kruise.io/v1alpha1 to policy.kruise.io/v1beta1: '
        + 'annotation kruise.io/pub-protect-operations: unsupported operation "KILL" (want DELETE, UPDATE, EVICT, RESIZE)',
    });
    const badReplicas = { ...alpha, metadata: { name: 'p', annotations: { 'pub.kruise.io/protect-total-replicas': 'x' } } };
    assert.throws(() => convertKruiseObject(badReplicas, PUB_BETA), /annotation pub\.kruise\.io\/protect-total-replicas: "x" is not an int32/);
  });

  test('v1beta1 → v1alpha1 writes the annotations and drops ignoredPodSelector (v1beta1 only)', () => {
    const beta = deepFreeze(manifest(`
apiVersion: policy.kruise.io/v1beta1
kind: PodUnavailableBudget
metadata: {name: web-pub, namespace: pb1}
spec:
  selector: {matchLabels: {app: web}}
  minAvailable: 2
  protectTotalReplicas: 3
  protectOperations: [EVICT, RESIZE]
  ignoredPodSelector: {matchLabels: {drain: ok}}
status: {totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1, observedGeneration: 1, disruptedPods: {p1: "2024-01-01T00:00:00Z"}}
`));
    const asAlpha = convertKruiseObject(beta, PUB_ALPHA) as Obj;
    assert.deepEqual(asAlpha.metadata.annotations, { 'kruise.io/pub-protect-operations': 'EVICT,RESIZE', 'pub.kruise.io/protect-total-replicas': '3' });
    assert.deepEqual(Object.keys(asAlpha.spec).sort(), ['minAvailable', 'selector']);
    assertSchemaValid(asAlpha);
    const { ignoredPodSelector: _, ...spec } = beta.spec as Obj;
    assert.deepEqual(roundTrip(beta, PUB_ALPHA), { ...beta, spec });
  });
});

describe('ResourceDistribution', () => {
  const alpha = deepFreeze({
    ...example('ResourceDistribution shared-cm'),
    status: {
      desired: 2, succeeded: 1, failed: 1, observedGeneration: 1,
      conditions: [
        { type: 'GetResourceFailed', status: 'False' },
        { type: 'NamespaceNotExists', status: 'True', reason: 'NamespacesNotExist', lastTransitionTime: '2024-01-01T00:00:00Z', failedNamespace: ['rd-3'] },
      ],
    },
  });

  test('namespaceLabelSelector → namespaceSelector and failedNamespace → failedNamespaces', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.spec.targets.namespaceSelector, { matchLabels: { team: 'x' } });
    assert.equal(beta.spec.targets.namespaceLabelSelector, undefined);
    assert.deepEqual(beta.status.conditions[1].failedNamespaces, ['rd-3']);
    assert.equal(beta.status.conditions[1].failedNamespace, undefined);
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
    const hub = deepFreeze(beta);
    assertSchemaValid(convertKruiseObject(hub, ALPHA));
    assert.deepEqual(roundTrip(hub, ALPHA), hub);
  });
});

describe('PersistentPodState', () => {
  const alpha = example('PersistentPodState db');

  test('nodeTopologyKeys → keys in required and preferred topology', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.spec.requiredPersistentTopology, { keys: ['zone'] });
    assert.deepEqual(beta.spec.preferredPersistentTopology, [{ weight: 100, preference: { keys: ['kubernetes.io/hostname'] } }]);
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
    const hub = example('PersistentPodState v1beta1');
    const asAlpha = convertKruiseObject(hub, ALPHA) as Obj;
    assert.deepEqual(asAlpha.spec.requiredPersistentTopology, { nodeTopologyKeys: ['zone'] });
    assertSchemaValid(asAlpha);
    assert.deepEqual(roundTrip(hub, ALPHA), hub);
  });
});
