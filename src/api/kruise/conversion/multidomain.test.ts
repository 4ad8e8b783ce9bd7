import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../meta.js';
import { convertKruiseObject } from './index.js';
import { assertSchemaValid, deepFreeze, manifest, roundTrip } from './test-kit.js';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';
// any: the assertions walk converted JSON of several shapes.
type Obj = KObject & Record<string, any>;
const podTemplate = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.25-alpine' }] } });

describe('UnitedDeployment', () => {
  /** Status as an upstream v1alpha1 controller wrote it (legacy maps consistent with subsetStatuses). */
  const alpha = deepFreeze({
    apiVersion: ALPHA, kind: 'UnitedDeployment',
    metadata: { name: 'demo', namespace: 'ud1', labels: { app: 'demo' } },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'demo' } },
      template: {
        cloneSetTemplate: {
          metadata: { labels: { app: 'demo' }, annotations: { 'apps.kruise.io/image-predownload-parallelism': '2' } },
          spec: {
            selector: { matchLabels: { app: 'demo' } }, template: podTemplate('demo'),
            updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '50%' }, scaleStrategy: { disablePVCReuse: true },
          },
        },
      },
      topology: {
        subsets: [
          { name: 'subset-a', nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, minReplicas: 1, maxReplicas: '80%', patch: { metadata: { labels: { subset: 'a' } } } },
          { name: 'subset-b' },
        ],
        scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 45, unschedulableDuration: 600, reserveUnschedulablePods: true } },
      },
      updateStrategy: { type: 'Manual', manualUpdate: { partitions: { 'subset-a': 1 } } },
      revisionHistoryLimit: 12,
    },
    status: {
      observedGeneration: 7, readyReplicas: 4, replicas: 5, updatedReplicas: 3, reservedPods: 1, updatedReadyReplicas: 2,
      collisionCount: 1, currentRevision: 'rev-old', labelSelector: 'app=demo',
      subsetReplicas: { 'subset-a': 3, 'subset-b': 2 },
      subsetStatuses: [
        { name: 'subset-a', replicas: 3, readyReplicas: 2, partition: 1, reservedPods: 1, conditions: [{ type: 'Schedulable', status: 'False', lastTransitionTime: '2024-03-09T16:00:00Z', reason: 'reschedule', message: 'reserved pods found' }] },
        { name: 'subset-b', replicas: 2, readyReplicas: 2 },
      ],
      conditions: [{ type: 'UnitedDeploymentUpdated', status: 'False', lastTransitionTime: '2024-03-09T16:00:00Z', reason: 'UnitedDeploymentRevisionUpdating', message: 'updating to revision rev-new' }],
      updateStatus: { updatedRevision: 'rev-new', currentPartitions: { 'subset-a': 1, 'subset-b': 0 } },
    },
  } as KObject);

  test('v1alpha1 → v1beta1 folds subsetReplicas and updateStatus into subsetStatuses and updatedRevision', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.equal(beta.status.updatedRevision, 'rev-new');
    assert.equal(beta.status.subsetReplicas, undefined);
    assert.equal(beta.status.updateStatus, undefined);
    assert.deepEqual(beta.status.subsetStatuses.map((s: Obj) => [s.name, s.replicas, s.partition ?? 0]), [['subset-a', 3, 1], ['subset-b', 2, 0]]);
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });

  test('the embedded CloneSet template is converted like a CloneSet', () => {
    const tpl = (convertKruiseObject(alpha, BETA) as Obj).spec.template.cloneSetTemplate;
    assert.deepEqual(tpl.spec.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: '50%', inPlaceUpdateStrategy: { imagePreDownloadParallelism: 2 } },
    });
    assert.deepEqual(tpl.spec.scaleStrategy, { enablePVCReuse: false });
    assert.deepEqual(tpl.metadata, { labels: { app: 'demo' } });
  });

  test('a template already in v1beta1 CloneSet shape (newer clients) is left as is', () => {
    const hubShaped = {
      selector: { matchLabels: { app: 'demo' } }, template: podTemplate('demo'),
      scaleStrategy: { enablePVCReuse: false }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceOnly', partition: 2 } },
    };
    const ud = structuredClone(alpha) as Obj;
    ud.spec.template.cloneSetTemplate.spec = hubShaped;
    assert.deepEqual((convertKruiseObject(ud, BETA) as Obj).spec.template.cloneSetTemplate.spec, hubShaped);
  });

  test('legacy entries for subsets without a status become subset statuses', () => {
    const legacy = { ...alpha, status: { replicas: 6, updatedReplicas: 0, currentRevision: 'r1', subsetReplicas: { 'subset-a': 5, 'subset-c': 1 }, updateStatus: { currentPartitions: { 'subset-a': 2, 'subset-c': 3 } } } };
    const beta = convertKruiseObject(legacy, BETA) as Obj;
    assert.deepEqual(beta.status.subsetStatuses, [{ name: 'subset-a', replicas: 5, partition: 2 }, { name: 'subset-c', replicas: 1, partition: 3 }]);
    assert.equal(beta.status.updatedRevision, undefined);
  });

  test('v1beta1 → v1alpha1 → v1beta1 is the identity; unnamed subset statuses are left out of the legacy maps', () => {
    const beta = deepFreeze(convertKruiseObject(alpha, BETA));
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
    const odd = { ...beta, status: { replicas: 3, updatedReplicas: 0, currentRevision: 'r', subsetStatuses: [{ name: '', replicas: 9 }, { name: 'subset-a', replicas: 3 }] } };
    const legacy = (convertKruiseObject(odd, ALPHA) as Obj).status;
    assert.deepEqual(legacy.subsetReplicas, { 'subset-a': 3 });
    assert.deepEqual(legacy.updateStatus, { currentPartitions: { 'subset-a': 0 } });
  });
});

describe('WorkloadSpread', () => {
  const alpha = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata: {name: ws, namespace: ws1}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  subsets:
  - name: zone-a
    requiredNodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [a]}]}
    preferredNodeSelectorTerms: [{weight: 10, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}]
    maxReplicas: 2
    patch: {metadata: {labels: {subset: a}}}
  - {name: zone-b, requiredNodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [b]}]}, tolerations: [{key: x, operator: Exists}]}
  scheduleStrategy: {type: Adaptive, adaptive: {rescheduleCriticalSeconds: 30}}
status:
  observedGeneration: 1
  subsetStatuses:
  - {name: zone-a, replicas: 2, missingReplicas: 0, creatingPods: {p1: "2024-01-01T00:00:00Z"},
     conditions: [{type: Schedulable, status: "True", reason: Sufficient, lastTransitionTime: "2024-01-01T00:00:00Z"}]}
  - {name: zone-b, replicas: 1, missingReplicas: -1}
  versionedSubsetStatuses:
    versionIgnored: [{name: zone-a, replicas: 2, missingReplicas: 0, conditions: [{type: Schedulable, status: "False", reason: PodUnschedulable, message: no nodes, lastTransitionTime: "2024-01-01T00:00:00Z"}]}]
`));

  test('subset node selectors are renamed and conditions get the fields metav1.Condition requires', () => {
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    const [a, b] = beta.spec.subsets;
    assert.deepEqual(a.requiredNodeSelector, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] });
    assert.equal(a.requiredNodeSelectorTerm, undefined);
    assert.equal(a.preferredNodeSelector[0].weight, 10);
    assert.equal(a.preferredNodeSelectorTerms, undefined);
    assert.ok(b.requiredNodeSelector);
    assert.equal(beta.status.subsetStatuses[0].conditions[0].message, '');
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });

  test('a condition without a reason gets Unknown (documented loss)', () => {
    const noReason = structuredClone(alpha) as Obj;
    delete noReason.status.subsetStatuses[0].conditions[0].reason;
    const beta = convertKruiseObject(noReason, BETA) as Obj;
    assert.equal(beta.status.subsetStatuses[0].conditions[0].reason, 'Unknown');
    assertSchemaValid(beta);
  });

  test('v1beta1 → v1alpha1 → v1beta1 is the identity', () => {
    const beta = deepFreeze(convertKruiseObject(alpha, BETA));
    const back = convertKruiseObject(beta, ALPHA);
    assertSchemaValid(back);
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
  });
});
