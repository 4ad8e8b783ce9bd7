import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { admissionInput, assertSomeMessage, messages, type InputOptions } from '../testkit.js';
import { daemonSetWebhooks } from './index.js';

type Spec = Record<string, unknown>;

function ads(spec: Spec = {}, podSpec: Spec = {}): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'nginx:1.25-alpine' }], ...podSpec } },
      ...spec,
    },
  };
}

const defaulted = async (o: InputOptions): Promise<KObject> => daemonSetWebhooks.default!(admissionInput({ kind: 'DaemonSet', ...o }));

async function validate(o: InputOptions, withDefaults = true): Promise<string[]> {
  const input = admissionInput({ kind: 'DaemonSet', ...o });
  if (input.object && withDefaults) input.object = await daemonSetWebhooks.default!(input);
  return messages(await daemonSetWebhooks.validate!(input));
}

const rolling = (ru: Spec): Spec => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru } });

describe('ADS defaulting', () => {
  test('a minimal manifest reads back with every default and an untouched template', async () => {
    const out = await defaulted({ object: ads() });
    assert.deepEqual(out.spec, {
      burstReplicas: 250,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } },
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'nginx:1.25-alpine' }] } },
    });
  });

  test('a budget that is set is kept as is', async () => {
    const out = await defaulted({ object: ads(rolling({ maxSurge: 1 })) });
    assert.deepEqual((out.spec as Spec).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1 } });
  });

  test('v1alpha1 Surging with no budget reads back as Standard with surge 1 and is accepted', async () => {
    const obj = ads(rolling({ rollingUpdateType: 'Surging' }));
    const out = await defaulted({ object: obj, version: 'v1alpha1' });
    assert.deepEqual((out.spec as Spec).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 } });
    assert.deepEqual(await validate({ object: obj, version: 'v1alpha1' }), []);
  });
});

describe('ADS validation', () => {
  const invalid: [string, KObject, string][] = [
    ['maxUnavailable 1 and maxSurge 1', ads(rolling({ maxUnavailable: 1, maxSurge: 1 })),
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero'],
    ['maxUnavailable 0 and maxSurge 0', ads(rolling({ maxUnavailable: 0, maxSurge: 0 })),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ['InPlaceIfPossible with surge', ads(rolling({ rollingUpdateType: 'InPlaceIfPossible', maxSurge: 1, maxUnavailable: 0 })),
      'spec.updateStrategy.rollingUpdate.maxSurge: Required value: must be 0 for InPlaceIfPossible type'],
    ['maxUnavailable 120%', ads(rolling({ maxUnavailable: '120%' })),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%'],
    ['a negative maxSurge', ads(rolling({ maxSurge: -1 })), 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0'],
    ['an unknown rollingUpdateType', ads(rolling({ rollingUpdateType: 'Fast', maxUnavailable: 1 })),
      'spec.updateStrategy.rollingUpdate.rollingUpdateType: Unsupported value: "Fast": supported values: "Standard", "InPlaceIfPossible"'],
    ['a negative partition', ads(rolling({ maxUnavailable: 1, partition: -1 })), 'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ['a partition above 100%', ads(rolling({ maxUnavailable: 1, partition: '120%' })), 'spec.updateStrategy.rollingUpdate.partition: Invalid value: "120%": must not be greater than 100%'],
    ['an unknown update type', ads({ updateStrategy: { type: 'Rolling' } }), 'spec.updateStrategy.type: Unsupported value: "Rolling": supported values: "RollingUpdate", "OnDelete"'],
    ['lifecycle.inPlaceUpdate', ads({ lifecycle: { inPlaceUpdate: { labelsHandler: { a: 'b' } } } }),
      'spec.lifecycle.inPlaceUpdate: Forbidden: inPlaceUpdate hook has not supported yet'],
    ['negative minReadySeconds', ads({ minReadySeconds: -1 }), 'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'],
    ['negative revisionHistoryLimit', ads({ revisionHistoryLimit: -1 }), 'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0'],
    ['an empty selector', ads({ selector: {} }), 'spec.selector: Invalid value: {}: empty selector is invalid for daemonset'],
    ['a selector not matching', ads({ selector: { matchLabels: { app: 'x' } } }), 'spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`'],
    ['restartPolicy Never', ads({}, { restartPolicy: 'Never' }), 'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ['activeDeadlineSeconds', ads({}, { activeDeadlineSeconds: 30 }), 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported'],
    ['a writable GCE disk', ads({}, { volumes: [{ name: 'pd', gcePersistentDisk: { pdName: 'x' } }] }), 'spec.template.spec.volumes[0].gcePersistentDisk.readOnly: Invalid value: false'],
    ['an invalid container', ads({}, { containers: [{ name: 'Agent', image: 'nginx' }] }), 'spec.template.spec.containers[0].name: Invalid value: "Agent"'],
  ];
  for (const [name, obj, fragment] of invalid) {
    test(`rejects ${name}`, async () => {
      const msgs = await validate({ object: obj });
      assertSomeMessage(msgs, fragment);
    });
  }

  const valid: [string, KObject][] = [
    ['the base manifest (template without defaults)', ads()],
    ['InPlaceIfPossible with maxUnavailable 2', ads(rolling({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 }))],
    ['surge 1 and unavailable 0', ads({ minReadySeconds: 3, ...rolling({ maxSurge: 1, maxUnavailable: 0 }) })],
    ['a percent partition, node selector and pause', ads(rolling({ maxUnavailable: '25%', partition: '50%', paused: true, selector: { matchLabels: { canary: 'true' } } }))],
    ['partitioned scaling and a preDelete hook', ads({ scaleStrategy: { partitionedScaling: true }, lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } } })],
    ['OnDelete', ads({ updateStrategy: { type: 'OnDelete' } })],
  ];
  for (const [name, obj] of valid) {
    test(`accepts ${name}`, async () => assert.deepEqual(await validate({ object: obj }), []));
  }

  // Defaulting rewrites these, so only a request that skipped the mutating webhook can carry them.
  test('without defaulting, Surging is v1alpha1-only and RollingUpdate needs its block', async () => {
    assert.ok((await validate({ object: ads(rolling({ rollingUpdateType: 'Surging', maxSurge: 1 })) }, false))
      .includes('spec.updateStrategy.rollingUpdate.rollingUpdateType: Unsupported value: "Surging": supported values: "Standard", "InPlaceIfPossible"'));
    assert.deepEqual(await validate({ object: ads(rolling({ rollingUpdateType: 'Surging', maxSurge: 1 })), version: 'v1alpha1' }, false), []);
    assert.deepEqual(await validate({ object: ads({ updateStrategy: { type: 'RollingUpdate' } }) }, false), ['spec.updateStrategy.rollingUpdate: Required value']);
  });

  test('v1alpha1 Surging needs maxUnavailable 0', async () => {
    const msgs = await validate({ object: ads(rolling({ rollingUpdateType: 'Surging', maxUnavailable: 1 })), version: 'v1alpha1' }, false);
    assert.ok(msgs.includes('spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: must be 0 for Surging type'), JSON.stringify(msgs));
  });
});

describe('ADS update', () => {
  const update = (next: KObject, old: KObject) => validate({ operation: 'UPDATE', object: next, oldObject: old });

  test('a changed selector is forbidden', async () => {
    const next = ads({ selector: { matchLabels: { app: 'agent', v: '2' } } });
    ((next.spec as Spec).template as { metadata: { labels: Spec } }).metadata.labels.v = '2';
    assert.deepEqual(await update(next, ads()), ["spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', "
      + "'template', 'lifecycle', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit' and 'scaleStrategy' are forbidden"]);
  });

  test('template, strategies, burstReplicas and lifecycle may change', async () => {
    const next = ads({ burstReplicas: 10, minReadySeconds: 5, revisionHistoryLimit: 2, scaleStrategy: { partitionedScaling: true },
      lifecycle: { preDelete: { finalizersHandler: ['x.io/hold'] } }, ...rolling({ maxUnavailable: 2 }) }, { hostNetwork: true });
    assert.deepEqual(await update(next, ads()), []);
  });

  test('DELETE is not validated', async () => {
    assert.deepEqual(await daemonSetWebhooks.validate!(admissionInput({ operation: 'DELETE', oldObject: ads() })), []);
  });
});
