import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { admissionInput, assertSomeMessage, messages, type InputOptions } from '../testkit.js';
import { cloneSetWebhooks } from './index.js';

type Spec = Record<string, unknown>;

function cloneSet(spec: Spec = {}, meta: Partial<KObject['metadata']> = {}): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet',
    metadata: { name: 'demo', namespace: 'default', uid: 'cs-uid', ...meta },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'demo' } },
      template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
      ...spec,
    },
  };
}

async function defaulted(o: InputOptions): Promise<KObject> {
  return cloneSetWebhooks.default!(admissionInput({ kind: 'CloneSet', ...o }));
}

/** The CloneSet as the mutating webhook leaves it, then validated as the validating webhook sees it. */
async function validate(o: InputOptions): Promise<string[]> {
  const input = admissionInput({ kind: 'CloneSet', ...o });
  if (input.object) input.object = await cloneSetWebhooks.default!(input);
  return messages(await cloneSetWebhooks.validate!(input));
}

const rolling = (ru: Spec, type = 'RollingUpdate'): Spec => ({ updateStrategy: { type, rollingUpdate: ru } });
const podSpec = (obj: KObject): Spec => ((obj.spec as Spec).template as Spec).spec as Spec;

describe('CloneSet defaulting', () => {
  test('a minimal manifest reads back with every default', async () => {
    const minimal = cloneSet();
    delete (minimal.spec as Spec).replicas;
    const out = await defaulted({ object: minimal });
    assert.deepEqual(out.spec, {
      replicas: 1,
      revisionHistoryLimit: 10,
      scaleStrategy: {},
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 } },
      selector: { matchLabels: { app: 'demo' } },
      template: {
        metadata: { labels: { app: 'demo' } },
        spec: {
          containers: [{
            name: 'web', image: 'nginx:1.25-alpine', imagePullPolicy: 'Always',
            terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
          }],
          restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30,
          securityContext: {}, schedulerName: 'default-scheduler',
        },
      },
    });
  });

  test('InPlace policies get an inPlaceUpdateStrategy, OnDelete gets no rollingUpdate', async () => {
    const inPlace = await defaulted({ object: cloneSet(rolling({ podUpdatePolicy: 'InPlaceIfPossible' })) });
    assert.deepEqual((inPlace.spec as Spec).updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: {}, partition: 0, maxUnavailable: '20%', maxSurge: 0 },
    });
    const onDelete = await defaulted({ object: cloneSet({ updateStrategy: { type: 'OnDelete' } }) });
    assert.deepEqual((onDelete.spec as Spec).updateStrategy, { type: 'OnDelete' });
  });

  test('claim templates get volumeMode Filesystem on create', async () => {
    const claims = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const out = await defaulted({ object: cloneSet({ volumeClaimTemplates: claims }) });
    const spec = ((out.spec as Spec).volumeClaimTemplates as Spec[])[0].spec as Spec;
    assert.equal(spec.volumeMode, 'Filesystem');
  });

  test('template defaults only on create or when the template changed', async () => {
    const old = cloneSet();
    const unchanged = await defaulted({ operation: 'UPDATE', object: cloneSet({ replicas: 5 }), oldObject: old });
    assert.equal(podSpec(unchanged).restartPolicy, undefined);
    assert.equal((podSpec(unchanged).containers as Spec[])[0].imagePullPolicy, undefined);

    const changedObj = cloneSet();
    (podSpec(changedObj).containers as Spec[])[0].image = 'nginx:1.26-alpine';
    const changed = await defaulted({ operation: 'UPDATE', object: changedObj, oldObject: old });
    assert.equal(podSpec(changed).restartPolicy, 'Always');
    assert.equal((podSpec(changed).containers as Spec[])[0].imagePullPolicy, 'Always');
  });

  test('DefaultHostNetworkHostPortsInPodTemplates: a hostNetwork template port gets hostPort = containerPort only with the gate', async () => {
    const hostNetwork = () => {
      const cs = cloneSet();
      Object.assign(podSpec(cs), { hostNetwork: true, containers: [{ name: 'web', image: 'nginx:1.25-alpine', ports: [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 19090 }] }] });
      return cs;
    };
    const ports = (obj: KObject) => ((podSpec(obj).containers as Spec[])[0].ports as Spec[]).map((p) => p.hostPort);
    assert.deepEqual(ports(await defaulted({ object: hostNetwork() })), [undefined, 19090]);
    assert.deepEqual(ports(await defaulted({ object: hostNetwork(), gates: { DefaultHostNetworkHostPortsInPodTemplates: true } })), [8080, 19090]);
  });

  test('TemplateNoDefaults leaves the template alone but still defaults the spec', async () => {
    const out = await defaulted({ object: cloneSet(), gates: { TemplateNoDefaults: true } });
    assert.equal(podSpec(out).restartPolicy, undefined);
    assert.equal((out.spec as Spec).revisionHistoryLimit, 10);
  });
});

describe('CloneSet validation (both versions)', () => {
  const invalid: [string, Spec, string][] = [
    ['selector not matching the template', { selector: { matchLabels: { app: 'other' } } }, 'spec.template.metadata.labels: Invalid value: {"app":"demo"}: `selector` does not match template `labels`'],
    ['empty selector', { selector: {} }, 'spec.selector: Invalid value: {}: empty selector is invalid for cloneset'],
    ['missing selector', { selector: undefined }, 'spec.selector: Required value'],
    ['negative replicas', { replicas: -1 }, 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ['restartPolicy Never', { template: { metadata: { labels: { app: 'demo' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'web', image: 'nginx' }] } } },
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ['activeDeadlineSeconds', { template: { metadata: { labels: { app: 'demo' } }, spec: { activeDeadlineSeconds: 5, containers: [{ name: 'web', image: 'nginx' }] } } },
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in cloneset is not Supported'],
    ['container without image', { template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'web' }] } } },
      'spec.template.spec.containers[0].image: Required value'],
    ['a claim template named like a template volume', {
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }],
      template: { metadata: { labels: { app: 'demo' } }, spec: { volumes: [{ name: 'data', emptyDir: {} }], containers: [{ name: 'web', image: 'nginx' }] } },
    }, 'spec.template.spec.volumes[1].name: Duplicate value: "data"'],
    ['duplicated podsToDelete', { scaleStrategy: { podsToDelete: ['a', 'b', 'a'] } }, 'spec.scaleStrategy.podsToDelete: Invalid value: ["a","b","a"]: duplicated items [a]'],
    ['partition not a percent', rolling({ partition: 'abc' }), 'spec.updateStrategy.rollingUpdate.partition: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for partition: invalid value for IntOrString: invalid type: string is not a percentage'],
    ['negative partition', rolling({ partition: -1 }), 'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ['maxUnavailable without %', rolling({ maxUnavailable: '20' }), 'failed GetScaledValueFromIntOrPercent for maxUnavailable'],
    ['maxSurge 0 and maxUnavailable 0', rolling({ maxSurge: 0, maxUnavailable: 0 }), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: maxUnavailable and maxSurge should not both be less than 1'],
    ['maxUnavailable 0% rounds to 0', rolling({ maxSurge: 0, maxUnavailable: '0%' }), 'maxUnavailable and maxSurge should not both be less than 1'],
    ['InPlaceOnly with maxSurge', rolling({ podUpdatePolicy: 'InPlaceOnly', maxSurge: 1 }), 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly'],
    ['weight and order priorities', rolling({ priorityStrategy: { orderPriority: [{ orderedKey: 'k' }], weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }] } }),
      'spec.updateStrategy.rollingUpdate.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used'],
    ['weight above 100', rolling({ priorityStrategy: { weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }] } }), 'weight must be valid number in the range 1-100'],
    ['empty weight selector', rolling({ priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: {} }] } }), 'selector can not be empty'],
    ['invalid weight selector', rolling({ priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }] } }), 'invalid selector'],
    ['empty ordered key', rolling({ priorityStrategy: { orderPriority: [{ orderedKey: '' }] } }), 'order key can not be empty'],
    ['empty scatter key', rolling({ scatterStrategy: [{ key: '', value: 'x' }] }), 'spec.updateStrategy.rollingUpdate.scatterStrategy: Required value: key should not be empty'],
    ['duplicated scatter term', rolling({ scatterStrategy: [{ key: 'k', value: 'v' }, { key: 'k', value: 'v' }] }), 'duplicated key=k value=v'],
    ['unknown type (v1beta1)', { updateStrategy: { type: 'Rolling' } }, 'spec.updateStrategy.type: Unsupported value: "Rolling": supported values: "RollingUpdate", "OnDelete"'],
    ['unknown podUpdatePolicy (v1beta1)', rolling({ podUpdatePolicy: 'Replace' }), 'spec.updateStrategy.rollingUpdate.podUpdatePolicy: Unsupported value: "Replace"'],
    ['percent pre-download parallelism (v1beta1)', rolling({ inPlaceUpdateStrategy: { imagePreDownloadParallelism: '50%' } }),
      'spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy.imagePreDownloadParallelism: Invalid value: "50%": must be a non-negative integer'],
    ['negative pre-download timeout (v1beta1)', rolling({ inPlaceUpdateStrategy: { imagePreDownloadTimeoutSeconds: -1 } }),
      'spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy.imagePreDownloadTimeoutSeconds: Invalid value: -1: must be greater than or equal to 0'],
    ['invalid name', {}, 'metadata.name: Invalid value: "Demo"'],
  ];
  for (const [name, spec, fragment] of invalid) {
    test(`rejects ${name}`, async () => {
      const obj = cloneSet(spec, name === 'invalid name' ? { name: 'Demo' } : {});
      const msgs = await validate({ object: obj });
      assertSomeMessage(msgs, fragment);
    });
  }

  const valid: [string, Spec][] = [
    ['the base manifest', {}],
    ['ReCreate with maxUnavailable 1', rolling({ maxUnavailable: 1 })],
    ['maxSurge 1 with maxUnavailable 0', rolling({ maxSurge: 1, maxUnavailable: 0 })],
    ['InPlaceIfPossible with a grace period', rolling({ podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } })],
    ['percent partition and decimal maxUnavailable', rolling({ partition: '40%', maxUnavailable: '33.3%' })],
    ['OnDelete (v1beta1)', { updateStrategy: { type: 'OnDelete' } }],
    ['claim templates', { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] }],
    ['zero replicas with no budget', { replicas: 0, ...rolling({ maxSurge: 0, maxUnavailable: 0 }) }],
    ['a non-existent pod in podsToDelete (v1beta1)', { scaleStrategy: { podsToDelete: ['ghost'] } }],
    ['an InPlaceOnly update with a weight priority', rolling({ podUpdatePolicy: 'InPlaceOnly', priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { canary: 'true' } } }] } })],
  ];
  for (const [name, spec] of valid) {
    test(`accepts ${name}`, async () => {
      assert.deepEqual(await validate({ object: cloneSet(spec) }), []);
    });
  }

  test('accepts a template admitted without defaults (TemplateNoDefaults)', async () => {
    assert.deepEqual(await validate({ object: cloneSet(), gates: { TemplateNoDefaults: true } }), []);
  });
});

describe('CloneSet update and delete', () => {
  const update = (next: KObject, old: KObject, version = 'v1beta1') =>
    validate({ operation: 'UPDATE', object: next, oldObject: old, version });

  test('a changed selector is forbidden and the message lists the mutable fields', async () => {
    const next = cloneSet({ selector: { matchLabels: { app: 'demo', tier: 'x' } }, template: { metadata: { labels: { app: 'demo', tier: 'x' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } });
    const msgs = await update(next, cloneSet());
    assert.deepEqual(msgs, ["spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', "
      + "'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden"]);
  });

  test('replicas, template, strategies, lifecycle and deadlines may change', async () => {
    const next = cloneSet({
      replicas: 5, minReadySeconds: 5, progressDeadlineSeconds: 60, revisionHistoryLimit: 3,
      lifecycle: { preDelete: { labelsHandler: { 'example.io/hold': 'true' } } },
      scaleStrategy: { podsToDelete: ['demo-abcde'] }, ...rolling({ partition: 1 }),
      template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } },
    });
    assert.deepEqual(await update(next, cloneSet()), []);
  });

  test('a changed name is immutable', async () => {
    const msgs = await update(cloneSet({}, { name: 'other' }), cloneSet());
    assert.ok(msgs.includes('metadata.name: Invalid value: "other": field is immutable'), JSON.stringify(msgs));
  });

  test('DELETE is left to deletion protection and returns no field errors', async () => {
    const input = admissionInput({ operation: 'DELETE', oldObject: cloneSet() });
    assert.deepEqual(await cloneSetWebhooks.validate!(input), []);
    assert.equal(cloneSetWebhooks.invalidCode, 422);
  });
});

describe('CloneSet v1alpha1-only rules', () => {
  const pod = (name: string, meta: Partial<KObject['metadata']> = {}): KObject => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'demo', uid: 'cs-uid', controller: true }], ...meta },
  });
  const objects = [
    pod('demo-owned'),
    pod('demo-going', { deletionTimestamp: '2024-01-01T00:00:00Z' }),
    pod('other-pod', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true }] }),
  ];
  const withDelete = (names: string[]) => cloneSet({ scaleStrategy: { podsToDelete: names } });

  test('OnDelete is rejected through v1alpha1 only', async () => {
    const obj = cloneSet({ updateStrategy: { type: 'OnDelete' } });
    assert.deepEqual(await validate({ object: obj, version: 'v1alpha1' }),
      ['spec.updateStrategy.type: Invalid value: "OnDelete": must be \'ReCreate\', InPlaceIfPossible or \'InPlaceOnly\'']);
    assert.deepEqual(await validate({ object: obj, version: 'v1beta1' }), []);
  });

  test('rolling errors name the flat v1alpha1 paths', async () => {
    const msgs = await validate({ object: cloneSet(rolling({ maxSurge: 0, maxUnavailable: 0 })), version: 'v1alpha1' });
    assert.ok(msgs.some((m) => m.startsWith('spec.updateStrategy.maxUnavailable: Invalid value: 0')), JSON.stringify(msgs));
  });

  test('newly listed podsToDelete must exist, be live and be owned by this CloneSet', async () => {
    const msgs = await validate({ object: withDelete(['demo-owned', 'ghost', 'demo-going', 'other-pod']), version: 'v1alpha1', objects });
    assert.deepEqual(msgs, [
      'spec.scaleStrategy.podsToDelete: Invalid value: "demo-going": find pod demo-going already terminating',
      'spec.scaleStrategy.podsToDelete: Invalid value: "ghost": find pod ghost failed: pods "ghost" not found',
      'spec.scaleStrategy.podsToDelete: Invalid value: "other-pod": find pod other-pod owner is not this CloneSet',
    ]);
  });

  test('names already listed before the update are not looked up again', async () => {
    const msgs = await validate({ operation: 'UPDATE', object: withDelete(['ghost', 'demo-owned']), oldObject: withDelete(['ghost']), version: 'v1alpha1', objects });
    assert.deepEqual(msgs, []);
  });

  test('v1beta1 does not look podsToDelete up', async () => {
    assert.deepEqual(await validate({ object: withDelete(['ghost']), version: 'v1beta1', objects }), []);
  });

  test('InPlaceOnly updates may only replace container images (v1alpha1)', async () => {
    const old = await defaulted({ object: cloneSet(rolling({ podUpdatePolicy: 'InPlaceOnly' })) });
    const withEnv = structuredClone(old);
    (podSpec(withEnv).containers as Spec[])[0].env = [{ name: 'FOO', value: 'bar' }];
    const upd = (next: KObject, version: string) => validate({ operation: 'UPDATE', object: next, oldObject: old, version });
    assert.deepEqual(await upd(withEnv, 'v1alpha1'),
      ['spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env']);
    assert.deepEqual(await upd(withEnv, 'v1beta1'), []);
    const newImage = structuredClone(old);
    (podSpec(newImage).containers as Spec[])[0].image = 'nginx:1.26-alpine';
    assert.deepEqual(await upd(newImage, 'v1alpha1'), []);
  });

  test('progressDeadlineSeconds must exceed minReadySeconds unless disabled (v1alpha1)', async () => {
    const short = cloneSet({ progressDeadlineSeconds: 5, minReadySeconds: 10 });
    assert.deepEqual(await validate({ object: short, version: 'v1alpha1' }),
      ['spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds']);
    assert.deepEqual(await validate({ object: short, version: 'v1beta1' }), []);
    assert.deepEqual(await validate({ object: cloneSet({ progressDeadlineSeconds: 2147483647, minReadySeconds: 10 }), version: 'v1alpha1' }), []);
  });
});
