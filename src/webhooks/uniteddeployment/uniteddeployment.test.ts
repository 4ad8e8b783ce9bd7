import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { admissionInput, assertSomeMessage, messages, type InputOptions } from '../testkit.js';
import { unitedDeploymentWebhooks } from './index.js';

type Spec = Record<string, unknown>;

const zone = (z: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [z] }] });
const subset = (name: string, extra: Spec = {}): Spec => ({ name, nodeSelectorTerm: zone(name), ...extra });
const podTemplate = { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
const cloneSetTemplate = {
  metadata: { labels: { app: 'demo' } },
  spec: { selector: { matchLabels: { app: 'demo' } }, template: podTemplate },
};
const stsTemplate = (spec: Spec = {}) => ({
  statefulSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template: structuredClone(podTemplate), ...spec } },
});

function ud(spec: Spec = {}, subsets: Spec[] = [subset('a'), subset('b'), subset('c')]): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'UnitedDeployment',
    metadata: { name: 'demo', namespace: 'ud1' },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'demo' } },
      template: { cloneSetTemplate: structuredClone(cloneSetTemplate) },
      topology: { subsets },
      ...spec,
    },
  };
}

const defaulted = async (o: InputOptions): Promise<KObject> => unitedDeploymentWebhooks.default!(admissionInput({ kind: 'UnitedDeployment', ...o }));

async function validate(o: InputOptions): Promise<string[]> {
  const input = admissionInput({ kind: 'UnitedDeployment', ...o });
  if (input.object) input.object = await unitedDeploymentWebhooks.default!(input);
  return messages(await unitedDeploymentWebhooks.validate!(input));
}

const specOf = (o: KObject): Spec => o.spec as Spec;

describe('UnitedDeployment defaulting', () => {
  test('a minimal manifest reads back with every default and an untouched CloneSet template', async () => {
    const minimal = ud({}, [subset('a')]);
    delete specOf(minimal).replicas;
    const out = await defaulted({ object: { ...minimal, status: { replicas: 3 } } });
    assert.equal(out.status, undefined);
    assert.deepEqual(out.spec, {
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'Manual', manualUpdate: {} },
      selector: { matchLabels: { app: 'demo' } },
      template: { cloneSetTemplate },
      topology: { subsets: [subset('a')] },
    });
  });

  test('minReplicas 0 on every subset when only min/max are used', async () => {
    const out = await defaulted({ object: ud({}, [subset('a', { minReplicas: 2, maxReplicas: 4 }), subset('b')]) });
    assert.deepEqual((specOf(out).topology as { subsets: Spec[] }).subsets.map((s) => s.minReplicas), [2, 0]);
  });

  test('a statefulSetTemplate gets pod and claim defaults on create or template change only', async () => {
    const withClaims = ud({ template: stsTemplate({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }] }) });
    const podSpecOf = (o: KObject) => (((specOf(o).template as Spec).statefulSetTemplate as Spec).spec as { template: { spec: Spec }, volumeClaimTemplates: { spec: Spec }[] });
    const created = await defaulted({ object: withClaims });
    assert.equal(podSpecOf(created).template.spec.restartPolicy, 'Always');
    assert.equal((podSpecOf(created).template.spec.containers as Spec[])[0].imagePullPolicy, 'Always');
    assert.equal(podSpecOf(created).volumeClaimTemplates[0].spec.volumeMode, 'Filesystem');

    const unchanged = await defaulted({ operation: 'UPDATE', object: ud({ replicas: 6, template: stsTemplate() }), oldObject: ud({ template: stsTemplate() }) });
    assert.equal(podSpecOf(unchanged).template.spec.restartPolicy, undefined);
    const noDefaults = await defaulted({ object: ud({ template: stsTemplate() }), gates: { TemplateNoDefaults: true } });
    assert.equal(podSpecOf(noDefaults).template.spec.restartPolicy, undefined);
  });
});

describe('UnitedDeployment validation', () => {
  const invalid: [string, KObject, string][] = [
    ['fixed replicas beyond the total', ud({}, [subset('a', { replicas: 4 }), subset('b', { replicas: 4 })]),
      'spec.topology.subsets: Invalid value: 8: sum of indicated subset replicas 8 should not be greater than UnitedDeployment replicas 5'],
    ['replicas mixed with maxReplicas', ud({}, [subset('a', { replicas: 1 }), subset('b', { maxReplicas: 2 })]),
      'subset.Replicas and subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment'],
    ['every subset bounded', ud({}, [subset('a', { minReplicas: 1, maxReplicas: 2 }), subset('b', { minReplicas: 1, maxReplicas: 3 })]),
      'spec.topology.subsets: Invalid value: 2: at least one subset.maxReplicas must be empty'],
    ['a partition for a missing subset', ud({ updateStrategy: { type: 'Manual', manualUpdate: { partitions: { z: 1 } } } }),
      'spec.updateStrategy.manualUpdate.partitions: Invalid value: {"z":1}: subset z does not exist'],
    ['a statefulSetTemplate with replicas', ud({ template: stsTemplate({ replicas: 1 }) }),
      'spec.template.statefulSetTemplate.spec.replicas: Invalid value: 1: replicas in statefulSetTemplate will not be used'],
    ['a statefulSetTemplate with a partition', ud({ template: stsTemplate({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }) }),
      'spec.template.statefulSetTemplate.spec.updateStrategy.rollingUpdate.partition: Invalid value: 1: partition in statefulSetTemplate will not be used'],
    ['a deploymentTemplate with replicas', ud({ template: { deploymentTemplate: { metadata: { labels: { app: 'demo' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'demo' } }, template: podTemplate } } } }),
      'replicas in deploymentTemplate will not be used'],
    ['an advancedStatefulSetTemplate pod with restartPolicy Never', ud({ template: { advancedStatefulSetTemplate: { metadata: { labels: { app: 'demo' } },
      spec: { selector: { matchLabels: { app: 'demo' } }, template: { ...podTemplate, spec: { ...podTemplate.spec, restartPolicy: 'Never' } } } } } }),
    'spec.template.advancedStatefulSetTemplate.spec.template.spec.restartPolicy: Unsupported value: "Never"'],
    ['a pod template not matching the selector', ud({ template: stsTemplate({ template: { metadata: { labels: { app: 'x' } }, spec: podTemplate.spec } }) }),
      'spec.template.statefulSetTemplate.spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`'],
    ['no template', ud({ template: {} }), 'spec.template: Required value: should provide one of statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate'],
    ['two templates', ud({ template: { cloneSetTemplate, ...stsTemplate() } }), 'should provide only one of statefulSetTemplate'],
    ['template labels not matching', ud({ selector: { matchLabels: { app: 'other' } } }),
      'spec.template.cloneSetTemplate.metadata.labels: Invalid value: {"app":"demo"}: `selector` does not match template `labels`'],
    ['an empty selector', ud({ selector: {} }), 'spec.selector: Invalid value: {}: empty selector is invalid for uniteddeployment'],
    ['negative replicas', ud({ replicas: -1 }, [subset('a')]), 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ['a percent above 100%', ud({}, [subset('a', { replicas: '150%' }), subset('b')]),
      'spec.topology.subsets[0].replicas: Invalid value: "150%": subset replicas (150%) should be in range [0, 100]'],
    ['a replicas string without %', ud({}, [subset('a', { replicas: '3' }), subset('b')]), "only support integer value or percentage value with a suffix '%'"],
    ['fixed replicas on every subset not adding up', ud({}, [subset('a', { replicas: 1 }), subset('b', { replicas: 1 })]),
      'if replicas of all subsets are provided, the sum of indicated subset replicas 2 should equal UnitedDeployment replicas 5'],
    ['minReplicas above maxReplicas', ud({}, [subset('a', { minReplicas: 3, maxReplicas: 2 }), subset('b')]),
      'spec.topology.subsets[0].minReplicas: Invalid value: 3: subset[0].minReplicas must not be greater than maxReplicas'],
    ['a duplicated subset name', ud({}, [subset('a'), subset('a')]), 'spec.topology.subsets[1].name: Invalid value: "a": duplicated subset name a'],
    ['an invalid subset name', ud({}, [subset('A_b')]), 'spec.topology.subsets[0].name: Invalid value: "A_b": invalid subset name'],
    ['an invalid node selector operator', ud({}, [{ name: 'a', nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }] } }]),
      'spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
    ['In without values', ud({}, [{ name: 'a', nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In' }] } }]),
      "spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ['an invalid toleration', ud({}, [subset('a', { tolerations: [{ operator: 'Equal', value: 'x' }] })]), 'spec.topology.subsets[0].tolerations[0].operator'],
    ['subset replicas with Adaptive', ud({ topology: { subsets: [subset('a', { replicas: 1 }), subset('b')], scheduleStrategy: { type: 'Adaptive' } } }),
      'spec.topology.subsets[0].replicas: Forbidden: subset replicas may not be set when scheduleStrategy type is Adaptive'],
    ['reservation with a StatefulSet template', ud({ template: stsTemplate(), topology: { subsets: [subset('a')], scheduleStrategy: { type: 'Adaptive', adaptive: { reserveUnschedulablePods: true } } } }),
      'spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods: Forbidden'],
  ];
  for (const [name, obj, fragment] of invalid) {
    test(`rejects ${name}`, async () => {
      const msgs = await validate({ object: obj });
      assertSomeMessage(msgs, fragment);
    });
  }

  const valid: [string, KObject][] = [
    ['the even split manifest', ud()],
    ['specified replicas with a percent', ud({ replicas: 6 }, [subset('a', { replicas: 1 }), subset('b', { replicas: '50%' }), subset('c')])],
    ['min/max with an unbounded subset', ud({}, [subset('a', { minReplicas: 2, maxReplicas: 4 }), subset('b', { minReplicas: 2 })])],
    ['a statefulSetTemplate with manual partitions', ud({ replicas: 4, template: stsTemplate({ serviceName: 'demo' }), updateStrategy: { manualUpdate: { partitions: { a: 2 } } } }, [subset('a'), subset('b')])],
    ['adaptive scheduling', ud({ replicas: 2, topology: { subsets: [subset('a', { maxReplicas: 2 }), subset('b')],
      scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10, unschedulableDuration: 60 } } } })],
    ['reservation with a Deployment template', ud({ template: { deploymentTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template: podTemplate } } },
      topology: { subsets: [subset('a'), subset('b')], scheduleStrategy: { type: 'Adaptive', adaptive: { reserveUnschedulablePods: true } } } })],
    ['subset tolerations and a patch', ud({}, [subset('a', { tolerations: [{ key: 'dedicated', operator: 'Exists' }], patch: { metadata: { labels: { s: 'a' } } } }), subset('b')])],
  ];
  for (const [name, obj] of valid) {
    test(`accepts ${name}`, async () => assert.deepEqual(await validate({ object: obj }), []));
  }
});

describe('UnitedDeployment update and delete', () => {
  const update = (next: KObject, old: KObject) => validate({ operation: 'UPDATE', object: next, oldObject: old });

  test("an existing subset's nodeSelectorTerm and tolerations are immutable; new subsets are free", async () => {
    const next = ud({}, [subset('a', { nodeSelectorTerm: zone('x') }), subset('b', { tolerations: [{ key: 'k', operator: 'Exists' }] }), subset('c'), subset('d')]);
    assert.deepEqual(await update(next, ud()), [
      'spec.topology.subsets[0].nodeSelectorTerm: Forbidden: may not be changed in an update',
      'spec.topology.subsets[1].tolerations: Forbidden: may not be changed in an update',
    ]);
  });

  test('a StatefulSet template may change its pod template and strategy, nothing else', async () => {
    const base = ud({ template: stsTemplate() });
    const image = ud({ template: stsTemplate({ updateStrategy: { type: 'OnDelete' }, minReadySeconds: 5 }) });
    (((specOf(image).template as Spec).statefulSetTemplate as { spec: { template: { spec: { containers: Spec[] } } } }).spec.template.spec.containers[0]).image = 'busybox:2';
    assert.deepEqual(await update(image, base), []);
    assert.deepEqual(await update(ud({ template: stsTemplate({ serviceName: 'other' }) }), base), ["spec.template.statefulSetTemplate.spec: Forbidden: updates to statefulSetTemplate spec for fields other than 'template', "
      + "'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds' and 'ordinals' are forbidden"]);
  });

  test('an Advanced StatefulSet template may not change podManagementPolicy', async () => {
    const asts = (policy: string) => ud({ template: { advancedStatefulSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { podManagementPolicy: policy, selector: { matchLabels: { app: 'demo' } }, template: podTemplate } } } });
    assert.deepEqual(await update(asts('Parallel'), asts('OrderedReady')),
      ["spec.template.advancedStatefulSetTemplate.spec: Forbidden: updates to advancedStatefulSetTemplate spec for fields other than 'template' and 'updateStrategy' are forbidden"]);
  });

  test('the template kind may not change', async () => {
    const msgs = await update(ud({ template: stsTemplate() }), ud());
    assert.ok(msgs.some((m) => m.startsWith('spec.template: Forbidden: the subset workload kind may not be changed')), JSON.stringify(msgs));
  });

  test('DELETE returns no field errors', async () => {
    assert.deepEqual(await unitedDeploymentWebhooks.validate!(admissionInput({ operation: 'DELETE', oldObject: ud() })), []);
    assert.equal(unitedDeploymentWebhooks.invalidCode, 422);
  });
});
