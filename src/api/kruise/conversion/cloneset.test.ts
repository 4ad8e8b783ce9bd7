import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KObject } from '../../meta.js';
import { convertKruiseObject } from './index.js';
import { assertSchemaValid, deepFreeze, manifest, roundTrip } from './test-kit.js';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';
// any: the assertions walk converted JSON of several shapes.
type Obj = KObject & Record<string, any>;

/** docs/design/cloneset.md §13 C3 with every v1alpha1 update field set, plus status. */
const alphaFull = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: demo
  namespace: default
  labels: {app: demo}
  annotations: {note: keep}
spec:
  replicas: 5
  selector: {matchLabels: {app: demo}}
  template:
    metadata: {labels: {app: demo}}
    spec: {containers: [{name: web, image: nginx:1.25-alpine}]}
  volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]
  scaleStrategy: {podsToDelete: [demo-abcde], maxUnavailable: 1, disablePVCReuse: true}
  updateStrategy:
    type: InPlaceIfPossible
    partition: 1
    maxUnavailable: 50%
    maxSurge: 0
    paused: true
    priorityStrategy: {weightPriority: [{weight: 50, matchSelector: {matchLabels: {canary: "true"}}}]}
    scatterStrategy: [{key: zone, value: a}]
    inPlaceUpdateStrategy: {gracePeriodSeconds: 10}
  revisionHistoryLimit: 5
  minReadySeconds: 3
  lifecycle: {preDelete: {labelsHandler: {example.io/hold: "true"}}}
  progressDeadlineSeconds: 600
status:
  observedGeneration: 2
  replicas: 5
  readyReplicas: 4
  availableReplicas: 4
  updatedReplicas: 4
  updatedReadyReplicas: 4
  updatedAvailableReplicas: 4
  expectedUpdatedReplicas: 4
  updateRevision: demo-7d9f8
  currentRevision: demo-5c6b4
  collisionCount: 0
  labelSelector: app=demo
  conditions: [{type: FailedScale, status: "True", reason: x, message: y, lastTransitionTime: "2024-01-01T00:00:00Z", lastUpdateTime: "2024-01-01T00:00:00Z"}]
`));

/** docs/design/cloneset.md §13 C2: the base CS after v1beta1 defaulting. */
const betaDefaulted = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1beta1
kind: CloneSet
metadata: {name: demo}
spec:
  replicas: 3
  selector: {matchLabels: {app: demo}}
  template:
    metadata: {labels: {app: demo}}
    spec: {containers: [{name: web, image: nginx:1.25-alpine, imagePullPolicy: Always}], restartPolicy: Always}
  revisionHistoryLimit: 10
  scaleStrategy: {enablePVCReuse: false}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0, maxUnavailable: 20%, maxSurge: 0, podUpdatePolicy: ReCreate}}
`));

describe('CloneSet v1alpha1 → v1beta1', () => {
  test('update type becomes podUpdatePolicy and the flat update fields move under rollingUpdate', () => {
    const beta = convertKruiseObject(alphaFull, BETA) as Obj;
    assert.equal(beta.apiVersion, BETA);
    assert.deepEqual(beta.spec.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: {
        podUpdatePolicy: 'InPlaceIfPossible', partition: 1, maxUnavailable: '50%', maxSurge: 0, paused: true,
        priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { canary: 'true' } } }] },
        scatterStrategy: [{ key: 'zone', value: 'a' }],
        inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
      },
    });
    assert.deepEqual(beta.spec.scaleStrategy, { podsToDelete: ['demo-abcde'], maxUnavailable: 1, enablePVCReuse: false });
    assert.deepEqual(beta.status, alphaFull.status);
    assert.deepEqual(beta.metadata, alphaFull.metadata);
    assertSchemaValid(beta);
  });

  test('C3: a v1alpha1 manifest without disablePVCReuse is stored with enablePVCReuse true, and round-trips', () => {
    const c3 = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: demo}
spec:
  replicas: 3
  selector: {matchLabels: {app: demo}}
  template: {metadata: {labels: {app: demo}}, spec: {containers: [{name: web, image: nginx:1.25-alpine}]}}
  updateStrategy: {type: InPlaceIfPossible, partition: 1}
`));
    const beta = convertKruiseObject(c3, BETA) as Obj;
    assert.deepEqual(beta.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 1 } });
    assert.deepEqual(beta.spec.scaleStrategy, { enablePVCReuse: true });
    assert.deepEqual(roundTrip(c3, BETA), c3);
  });

  test('round trip returns the original manifest', () => {
    assert.deepEqual(roundTrip(alphaFull, BETA), alphaFull);
  });

  test('OnDelete keeps no rollingUpdate; no type means ReCreate', () => {
    const onDelete = convertKruiseObject({ ...alphaFull, spec: { ...(alphaFull.spec as Obj), updateStrategy: { type: 'OnDelete', partition: 2 } } }, BETA) as Obj;
    assert.deepEqual(onDelete.spec.updateStrategy, { type: 'OnDelete' });
    const none = convertKruiseObject({ ...alphaFull, spec: { ...(alphaFull.spec as Obj), updateStrategy: undefined } }, BETA) as Obj;
    assert.deepEqual(none.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate' } });
  });

  test('image pre-download annotations become inPlaceUpdateStrategy fields and come back', () => {
    const alpha = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: demo
  annotations:
    apps.kruise.io/image-predownload-parallelism: "50%"
    apps.kruise.io/image-predownload-timeout-seconds: "300"
    apps.kruise.io/image-predownload-min-updated-ready-pods: "2"
spec:
  selector: {matchLabels: {app: demo}}
  template: {metadata: {labels: {app: demo}}, spec: {containers: [{name: web, image: nginx}]}}
  updateStrategy: {type: InPlaceOnly}
`));
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy, {
      imagePreDownloadParallelism: '50%', imagePreDownloadTimeoutSeconds: 300, imagePreDownloadMinUpdatedReadyPods: 2,
    });
    assert.equal(beta.metadata.annotations, undefined, 'the annotations moved into the spec');
    assertSchemaValid(beta);
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });

  test('an unparsable pre-download annotation stays an annotation', () => {
    const alpha = manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: demo, annotations: {apps.kruise.io/image-predownload-timeout-seconds: soon}}
spec: {selector: {matchLabels: {a: b}}, template: {}, updateStrategy: {type: ReCreate}}
`);
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.deepEqual(beta.metadata.annotations, { 'apps.kruise.io/image-predownload-timeout-seconds': 'soon' });
    assert.equal(beta.spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy, undefined);
  });

  test('label cloneset-scaling-exclude-preparing-delete=true sets excludePreparingDelete and stays', () => {
    const alpha = deepFreeze(manifest(`
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: demo, labels: {apps.kruise.io/cloneset-scaling-exclude-preparing-delete: "true"}}
spec: {selector: {matchLabels: {a: b}}, template: {}, scaleStrategy: {maxUnavailable: 2}, updateStrategy: {type: ReCreate}}
`));
    const beta = convertKruiseObject(alpha, BETA) as Obj;
    assert.equal(beta.spec.scaleStrategy.excludePreparingDelete, true);
    assert.equal(beta.metadata.labels?.['apps.kruise.io/cloneset-scaling-exclude-preparing-delete'], 'true');
    assert.deepEqual(roundTrip(alpha, BETA), alpha);
  });
});

describe('CloneSet v1beta1 → v1alpha1', () => {
  test('C2: the defaulted v1beta1 object reads as ReCreate, partition 0, disablePVCReuse true', () => {
    const alpha = convertKruiseObject(betaDefaulted, ALPHA) as Obj;
    assert.deepEqual(alpha.spec.updateStrategy, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 });
    assert.deepEqual(alpha.spec.scaleStrategy, { disablePVCReuse: true });
    assertSchemaValid(alpha);
    assert.deepEqual(roundTrip(betaDefaulted, ALPHA), betaDefaulted);
  });

  test('OnDelete, and RollingUpdate without rollingUpdate (→ ReCreate)', () => {
    const onDelete = convertKruiseObject({ ...betaDefaulted, spec: { ...(betaDefaulted.spec as Obj), updateStrategy: { type: 'OnDelete' } } }, ALPHA) as Obj;
    assert.deepEqual(onDelete.spec.updateStrategy, { type: 'OnDelete' });
    const bare = convertKruiseObject({ ...betaDefaulted, spec: { ...(betaDefaulted.spec as Obj), updateStrategy: { type: 'RollingUpdate' } } }, ALPHA) as Obj;
    assert.deepEqual(bare.spec.updateStrategy, { type: 'ReCreate' });
  });

  test('pre-download fields become annotations; gracePeriodSeconds stays in the spec', () => {
    const beta = deepFreeze({
      ...betaDefaulted,
      spec: {
        ...(betaDefaulted.spec as Obj),
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 5, imagePreDownloadParallelism: 3 } },
        },
      },
    }) as KObject;
    const alpha = convertKruiseObject(beta, ALPHA) as Obj;
    assert.deepEqual(alpha.metadata.annotations, { 'apps.kruise.io/image-predownload-parallelism': '3' });
    assert.deepEqual(alpha.spec.updateStrategy, { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 5 } });
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
  });

  test('excludePreparingDelete without the label is kept as a field, never written as the label', () => {
    const beta = deepFreeze({ ...betaDefaulted, spec: { ...(betaDefaulted.spec as Obj), scaleStrategy: { enablePVCReuse: true, excludePreparingDelete: true } } }) as KObject;
    const alpha = convertKruiseObject(beta, ALPHA) as Obj;
    assert.equal(alpha.metadata.labels, undefined);
    assert.deepEqual(alpha.spec.scaleStrategy, { excludePreparingDelete: true });
    assert.deepEqual(roundTrip(beta, ALPHA), beta);
  });
});

describe('CloneSet round trips (property)', () => {
  const intOrPercent = fc.oneof(fc.nat({ max: 20 }), fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`));
  const rollingFields = fc.record({
    partition: intOrPercent, maxUnavailable: intOrPercent, maxSurge: intOrPercent, paused: fc.boolean(),
    scatterStrategy: fc.array(fc.record({ key: fc.constantFrom('zone', 'rack'), value: fc.string({ maxLength: 3 }) }, { noNullPrototype: true }), { maxLength: 2 }),
    priorityStrategy: fc.record({ orderPriority: fc.array(fc.record({ orderedKey: fc.constantFrom('a', 'b') }, { noNullPrototype: true }), { minLength: 1, maxLength: 2 }) }, { noNullPrototype: true }),
  }, { requiredKeys: [], noNullPrototype: true });
  const policy = fc.constantFrom('ReCreate', 'InPlaceIfPossible', 'InPlaceOnly');
  const grace = fc.record({ gracePeriodSeconds: fc.nat({ max: 60 }) }, { noNullPrototype: true });
  const preDownload = fc.record({
    imagePreDownloadParallelism: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant('50%')),
    imagePreDownloadTimeoutSeconds: fc.integer({ min: 1, max: 900 }),
    imagePreDownloadMinUpdatedReadyPods: fc.nat({ max: 5 }),
  }, { requiredKeys: [], noNullPrototype: true });
  const base = { selector: { matchLabels: { app: 'p' } }, template: { metadata: { labels: { app: 'p' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } };

  test('v1beta1 → v1alpha1 → v1beta1 is the identity for RollingUpdate objects with explicit enablePVCReuse', () => {
    fc.assert(fc.property(policy, rollingFields, grace, preDownload, fc.boolean(), fc.boolean(), (p, fields, g, pd, reuse, exclude) => {
      const inPlaceUpdateStrategy = { ...g, ...pd };
      const beta: KObject = {
        apiVersion: BETA, kind: 'CloneSet', metadata: { name: 'p' },
        spec: {
          ...base,
          scaleStrategy: { enablePVCReuse: reuse, ...(exclude ? { excludePreparingDelete: true } : {}) },
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: p, ...fields, inPlaceUpdateStrategy } },
        },
      };
      const alpha = convertKruiseObject(beta, ALPHA);
      assert.deepEqual(convertKruiseObject(alpha, BETA), beta);
      assertSchemaValid(convertKruiseObject(alpha, BETA));
    }), { numRuns: 100 });
  });

  test('v1alpha1 → v1beta1 → v1alpha1 is the identity for explicit update types', () => {
    fc.assert(fc.property(policy, rollingFields, fc.option(grace, { nil: undefined }), preDownload, fc.boolean(), (type, fields, g, pd, disable) => {
      const annotations = Object.fromEntries(Object.entries(pd).map(([k, v]) => [
        { imagePreDownloadParallelism: 'apps.kruise.io/image-predownload-parallelism', imagePreDownloadTimeoutSeconds: 'apps.kruise.io/image-predownload-timeout-seconds', imagePreDownloadMinUpdatedReadyPods: 'apps.kruise.io/image-predownload-min-updated-ready-pods' }[k]!,
        String(v),
      ]));
      const alpha: KObject = {
        apiVersion: ALPHA, kind: 'CloneSet',
        metadata: { name: 'p', ...(Object.keys(annotations).length ? { annotations } : {}) },
        spec: { ...base, ...(disable ? { scaleStrategy: { disablePVCReuse: true } } : {}), updateStrategy: { type, ...fields, ...(g ? { inPlaceUpdateStrategy: g } : {}) } },
      };
      const beta = convertKruiseObject(alpha, BETA);
      assertSchemaValid(beta);
      assert.deepEqual(convertKruiseObject(beta, ALPHA), alpha);
    }), { numRuns: 100 });
  });
});
