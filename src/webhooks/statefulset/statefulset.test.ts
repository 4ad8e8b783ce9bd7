import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { AdmissionDenied } from '../kind-webhook.js';
import { admissionInput, assertSomeMessage, messages, type InputOptions } from '../testkit.js';
import { statefulSetWebhooks } from './index.js';

type Spec = Record<string, unknown>;
const onGates = { StatefulSetAutoDeletePVC: true };

function sts(spec: Spec = {}, readinessGate = true): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          ...(readinessGate ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}),
          containers: [{ name: 'app', image: 'nginx:1.25-alpine' }],
        },
      },
      ...spec,
    },
  };
}

const defaulted = (o: InputOptions): Promise<KObject> =>
  Promise.resolve(statefulSetWebhooks.default!(admissionInput({ kind: 'StatefulSet', gates: onGates, ...o })));

async function validate(o: InputOptions): Promise<string[]> {
  const input = admissionInput({ kind: 'StatefulSet', gates: onGates, ...o });
  if (input.object) input.object = await statefulSetWebhooks.default!(input);
  return messages(await statefulSetWebhooks.validate!(input));
}

const rolling = (ru: Spec, extra: Spec = {}): Spec => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru }, ...extra });
const specOf = (o: KObject): Spec => o.spec as Spec;

describe('ASTS defaulting', () => {
  test('a minimal manifest reads back with every default', async () => {
    const minimal = sts({}, false);
    delete specOf(minimal).replicas;
    const out = await defaulted({ object: { ...minimal, status: { replicas: 9 } } });
    assert.equal(out.status, undefined);
    assert.deepEqual(out.spec, {
      replicas: 1,
      revisionHistoryLimit: 10,
      serviceName: 'web',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{
            name: 'app', image: 'nginx:1.25-alpine', imagePullPolicy: 'Always',
            terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
          }],
          restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30,
          securityContext: {}, schedulerName: 'default-scheduler',
        },
      },
    });
  });

  test('gates decide PVC retention and the claim update strategy', async () => {
    const off = await defaulted({ object: sts(), gates: {} });
    assert.equal(specOf(off).persistentVolumeClaimRetentionPolicy, undefined);
    const resize = await defaulted({ object: sts(), gates: { StatefulSetAutoResizePVCGate: true } });
    assert.deepEqual(specOf(resize).volumeClaimUpdateStrategy, { type: 'OnDelete' });
  });

  test('v1alpha1 requests get only the fields v1alpha1 has', async () => {
    const out = await defaulted({ object: sts(), version: 'v1alpha1', gates: { StatefulSetAutoDeletePVC: true, StatefulSetAutoResizePVCGate: true } });
    assert.equal(specOf(out).persistentVolumeClaimRetentionPolicy, undefined);
    assert.equal(specOf(out).volumeClaimUpdateStrategy, undefined);
    assert.equal(specOf(out).podManagementPolicy, 'OrderedReady');
  });

  test('OnDelete gets no rollingUpdate; claim templates get volumeMode', async () => {
    const out = await defaulted({ object: sts({ updateStrategy: { type: 'OnDelete' }, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }] }) });
    assert.deepEqual(specOf(out).updateStrategy, { type: 'OnDelete' });
    assert.equal(((specOf(out).volumeClaimTemplates as Spec[])[0].spec as Spec).volumeMode, 'Filesystem');
  });

  test('template defaults only on create or when the template changed', async () => {
    const unchanged = await defaulted({ operation: 'UPDATE', object: sts({ replicas: 4 }), oldObject: sts() });
    assert.equal(((specOf(unchanged).template as Spec).spec as Spec).restartPolicy, undefined);
    const changed = sts();
    ((changed.spec as Spec).template as { spec: Spec }).spec.hostname = 'x';
    const out = await defaulted({ operation: 'UPDATE', object: changed, oldObject: sts() });
    assert.equal(((specOf(out).template as Spec).spec as Spec).restartPolicy, 'Always');
  });
});

describe('ASTS validation', () => {
  const template = (podSpec: Spec) => ({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...podSpec } } });
  const invalid: [string, KObject, string][] = [
    ['InPlaceIfPossible without the readiness gate', sts(rolling({ podUpdatePolicy: 'InPlaceIfPossible' }), false),
      'spec.template.spec.readinessGates: Invalid value: []: must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceIfPossible'],
    ['maxUnavailable 2 with OrderedReady', sts(rolling({ maxUnavailable: 2 })),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 2: can only work with Parallel PodManagementPolicyType'],
    ['a percent maxUnavailable with OrderedReady', sts(rolling({ maxUnavailable: '50%' })), 'can only work with Parallel PodManagementPolicyType'],
    ['maxUnavailable 0 with Parallel', sts(rolling({ maxUnavailable: 0 }, { podManagementPolicy: 'Parallel' })),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: should not be less than 1'],
    ['unorderedUpdate with OrderedReady', sts(rolling({ unorderedUpdate: {} })),
      'spec.updateStrategy.rollingUpdate.unorderedUpdate: Required value: unorderedUpdate can only work with Parallel PodManagementPolicyType'],
    ['an invalid unordered priority', sts(rolling({ unorderedUpdate: { priorityStrategy: { orderPriority: [{ orderedKey: '' }] } } }, { podManagementPolicy: 'Parallel' })),
      'spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy: Required value: order key can not be empty'],
    ['minReadySeconds 301', sts(rolling({ minReadySeconds: 301 })),
      'spec.updateStrategy.rollingUpdate.minReadySeconds: Invalid value: 301: must be no more than 300 seconds'],
    ['a negative partition', sts(rolling({ partition: -1 })), 'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ['reserveOrdinals "5-2"', sts({ reserveOrdinals: ['5-2'] }), 'spec.reserveOrdinals[0]: Invalid value: "5-2": 0 th reserve ordinal is invalid: 5-2, start 5 is greater than end 2'],
    ['reserveOrdinals "a-b"', sts({ reserveOrdinals: [1, 'a-b'] }), 'spec.reserveOrdinals[1]: Invalid value: "a-b": 1 th reserve ordinal is not a valid range: a-b'],
    ['a negative reserved ordinal', sts({ reserveOrdinals: [-1] }), 'spec.reserveOrdinals[0]: Invalid value: -1: 0 th reserve ordinal is negative: -1'],
    ['scaleStrategy.maxUnavailable 2 with OrderedReady', sts({ scaleStrategy: { maxUnavailable: 2 } }),
      'spec.scaleStrategy.maxUnavailable: Invalid value: 2: can only work with Parallel PodManagementPolicyType'],
    ['an unknown podManagementPolicy', sts({ podManagementPolicy: 'Burst' }), 'spec.podManagementPolicy: Invalid value: "Burst": must be \'OrderedReady\' or \'Parallel\''],
    ['an unknown update type', sts({ updateStrategy: { type: 'Rolling' } }), "spec.updateStrategy: Invalid value: {\"type\":\"Rolling\"}: must be 'RollingUpdate' or 'OnDelete'"],
    ['OnDelete with a rollingUpdate', sts({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }),
      "spec.updateStrategy.rollingUpdate: Invalid value: {\"partition\":1}: only allowed for updateStrategy 'RollingUpdate'"],
    ['an unknown podUpdatePolicy', sts(rolling({ podUpdatePolicy: 'Replace' })), "spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Replace\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"],
    ['an unknown retention policy', sts({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Keep' } }),
      'spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ['negative replicas', sts({ replicas: -1 }), 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ['an empty selector', sts({ selector: {} }), 'spec.selector: Invalid value: {}: empty selector is invalid for statefulset'],
    ['a selector not matching', sts({ selector: { matchLabels: { app: 'db' } } }), '`selector` does not match template `labels`'],
    ['restartPolicy OnFailure', sts(template({ restartPolicy: 'OnFailure' })), 'spec.template.spec.restartPolicy: Unsupported value: "OnFailure"'],
    ['activeDeadlineSeconds', sts(template({ activeDeadlineSeconds: 10 })), 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported'],
  ];
  for (const [name, obj, fragment] of invalid) {
    test(`rejects ${name}`, async () => {
      const msgs = await validate({ object: obj });
      assertSomeMessage(msgs, fragment);
    });
  }

  const valid: [string, KObject][] = [
    ['the base manifest', sts()],
    ['InPlaceIfPossible with the readiness gate', sts(rolling({ podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 2 } }))],
    ['Parallel with maxUnavailable 2', sts(rolling({ maxUnavailable: 2 }, { podManagementPolicy: 'Parallel', replicas: 4 }))],
    ['Parallel with a percent maxUnavailable', sts(rolling({ maxUnavailable: '10%' }, { podManagementPolicy: 'Parallel' }))],
    ['an unordered weight priority', sts(rolling({ unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { canary: 'true' } } }] } } }, { podManagementPolicy: 'Parallel' }))],
    ['reserved ordinals and ranges', sts({ reserveOrdinals: [1, '3-4', '6-6'] })],
    ['Parallel with a scale limit', sts({ podManagementPolicy: 'Parallel', replicas: 6, scaleStrategy: { maxUnavailable: 2 } })],
    ['OnDelete', sts({ updateStrategy: { type: 'OnDelete' } })],
    ['a claim template and a delete retention', sts({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }], persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } })],
  ];
  for (const [name, obj] of valid) {
    test(`accepts ${name}`, async () => assert.deepEqual(await validate({ object: obj }), []));
  }

  test('v1alpha1 objects are validated by the same rules', async () => {
    assert.deepEqual(await validate({ object: sts(), version: 'v1alpha1' }), []);
    const msgs = await validate({ object: sts(rolling({ maxUnavailable: 2 })), version: 'v1alpha1' });
    assertSomeMessage(msgs, 'can only work with Parallel PodManagementPolicyType');
  });
});

describe('ASTS update and delete', () => {
  const update = async (next: KObject, old: KObject, gates: Record<string, boolean> = onGates, objects: KObject[] = []) => {
    const input = admissionInput({ operation: 'UPDATE', object: next, oldObject: old, gates, objects });
    input.oldObject = await statefulSetWebhooks.default!({ ...input, request: { ...input.request, operation: 'CREATE' }, object: old });
    input.object = await statefulSetWebhooks.default!(input);
    return statefulSetWebhooks.validate!(input);
  };
  const forbidden = "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', "
    + "'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'volumeClaimTemplates', 'volumeClaimUpdateStrategy', "
    + "'updateStrategy' and 'scaleStrategy' are forbidden";

  test('serviceName and podManagementPolicy are immutable', async () => {
    assert.deepEqual(messages(await update(sts({ serviceName: 'other' }), sts())), [forbidden]);
    assert.deepEqual(messages(await update(sts({ podManagementPolicy: 'Parallel' }), sts())), [forbidden]);
  });

  test('replicas, ordinals, lifecycle, strategies and claims may change', async () => {
    const next = sts({
      replicas: 5, reserveOrdinals: [1], ordinals: { start: 2 }, revisionHistoryLimit: 3,
      lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }], ...rolling({ partition: 2 }),
    });
    assert.deepEqual(await update(next, sts()), []);
  });

  test('InPlaceOnly allows image changes and denies anything else with a 422', async () => {
    const base = sts(rolling({ podUpdatePolicy: 'InPlaceOnly' }));
    const image = structuredClone(base);
    (((image.spec as Spec).template as Spec).spec as { containers: Spec[] }).containers[0].image = 'nginx:1.26-alpine';
    assert.deepEqual(await update(image, base), []);
    const env = structuredClone(base);
    (((env.spec as Spec).template as Spec).spec as { containers: Spec[] }).containers[0].env = [{ name: 'A', value: 'b' }];
    await assert.rejects(update(env, base), (err: unknown) => err instanceof AdmissionDenied && err.code === 422
      && err.message === 'invalid template modified with InPlaceOnly strategy: add /containers/0/env, currently only image update is allowed for InPlaceOnly');
  });

  describe('claim templates with the resize gate and OnPodRollingUpdate', () => {
    const gates = { StatefulSetAutoResizePVCGate: true };
    const claim = (name: string, storage: string, spec: Spec = {}) =>
      ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec } });
    const withClaims = (...claims: Spec[]) => sts({ volumeClaimTemplates: claims, volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' } });
    const classes: KObject[] = [
      { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fixed' }, allowVolumeExpansion: false },
      { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'std', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, allowVolumeExpansion: true },
    ];

    test('only the storage size may change', async () => {
      assert.deepEqual(await update(withClaims(claim('data', '2Gi')), withClaims(claim('data', '1Gi')), gates, classes), []);
      assert.deepEqual(messages(await update(withClaims(claim('data', '1Gi'), claim('logs', '1Gi')), withClaims(claim('data', '1Gi')), gates, classes)),
        [`spec.volumeClaimTemplates: Invalid value: ${JSON.stringify([claim('data', '1Gi'), claim('logs', '1Gi')].map((c) => ({ ...c, spec: { ...c.spec, volumeMode: 'Filesystem' } })))}: volumeClaimTemplate can not be added or deleted when OnRollingUpdate`]);
      assert.deepEqual(messages(await update(withClaims(claim('logs', '1Gi')), withClaims(claim('data', '1Gi')), gates, classes)),
        ['spec.volumeClaimTemplates[logs].name: Forbidden: volumeClaimTemplate name can not be modified']);
      const modified = messages(await update(withClaims(claim('data', '1Gi', { accessModes: ['ReadWriteMany'] })), withClaims(claim('data', '1Gi')), gates, classes));
      assert.ok(modified[0].endsWith('volumeClaimTemplate can not be modified when OnRollingUpdate'), JSON.stringify(modified));
    });

    test('the storage class must allow expansion', async () => {
      const msgs = messages(await update(withClaims(claim('data', '2Gi', { storageClassName: 'fixed' })), withClaims(claim('data', '1Gi', { storageClassName: 'fixed' })), gates, classes));
      assert.deepEqual(msgs, ['spec.volumeClaimTemplates[data].spec.resources.requests.storage: Forbidden: storage class fixed does not support volume expansion']);
    });

    test('without the gate claim templates may change freely', async () => {
      assert.deepEqual(await update(withClaims(claim('logs', '1Gi')), withClaims(claim('data', '1Gi')), {}, classes), []);
    });
  });

  test('DELETE returns no field errors', async () => {
    assert.deepEqual(await statefulSetWebhooks.validate!(admissionInput({ operation: 'DELETE', oldObject: sts() })), []);
  });
});
