import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { AdmissionDenied } from '../kind-webhook.js';
import { admissionInput, assertSomeMessage, messages, type InputOptions } from '../testkit.js';
import { createWorkloadSpreadWebhooks, workloadSpreadWebhooks } from './index.js';

type Spec = Record<string, unknown>;

const zone = (z: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [z] }] });
const podTemplate = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox' }] } };

function ws(spec: Spec = {}, name = 'spread'): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'WorkloadSpread',
    metadata: { name, namespace: 'ws1' },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      subsets: [{ name: 'a', requiredNodeSelector: zone('a'), maxReplicas: 2 }, { name: 'b', requiredNodeSelector: zone('b') }],
      ...spec,
    },
  };
}

const objects: KObject[] = [
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ws1' }, spec: { replicas: 4, template: podTemplate } },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'clone', namespace: 'ws1' },
    spec: { template: podTemplate, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }] } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
    data: { WorkloadSpread_Watch_Custom_Workload_WhiteList: JSON.stringify({ workloads: [{ Group: 'example.io', Version: 'v1', Kind: 'GameSet' }] }) } },
  ws({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'taken' } }, 'other'),
];

async function validate(o: InputOptions): Promise<string[]> {
  const input = admissionInput({ kind: 'WorkloadSpread', objects, gates: { WorkloadSpread: true }, ...o });
  return messages(await workloadSpreadWebhooks.validate!(input));
}

const ref = (apiVersion: string, kind: string, name = 'x') => ({ targetRef: { apiVersion, kind, name } });
const subsets = (...list: Spec[]) => ({ subsets: list });

describe('WorkloadSpread validation', () => {
  const invalid: [string, KObject, string][] = [
    ['a missing targetRef', ws({ targetRef: undefined }), 'spec.targetRef: Required value: no targetRef defined in WorkloadSpread'],
    ['a targetRef without name', ws(ref('apps/v1', 'Deployment', '')), 'empty TargetReference is not valid for WorkloadSpread.'],
    ['a CloneSet outside apps.kruise.io', ws(ref('apps/v1', 'CloneSet')), 'TargetReference is not valid for CloneSet.'],
    ['a Deployment outside apps', ws(ref('apps.kruise.io/v1alpha1', 'Deployment')), 'TargetReference is not valid for Deployment.'],
    ['a Job outside batch', ws(ref('apps/v1', 'Job')), 'TargetReference is not valid for Job.'],
    ['a custom kind not whitelisted', ws(ref('example.io/v1', 'Other')), "spec.targetRef: Invalid value: {\"apiVersion\":\"example.io/v1\",\"kind\":\"Other\",\"name\":\"x\"}: TargetReference's GroupKind is not permitted."],
    ['no subsets', ws(subsets()), 'spec.subsets: Required value: subsets number must >= 1 in WorkloadSpread'],
    ['a subset without name', ws(subsets({ name: '' })), 'spec.subsets[0].name: Required value'],
    ['a duplicated subset', ws(subsets({ name: 'a' }, { name: 'a' })), 'spec.subsets[1].name: Invalid value: "a": duplicated subset name a'],
    ['an invalid required selector', ws(subsets({ name: 'a', requiredNodeSelector: { matchExpressions: [{ key: 'zone', operator: 'Near' }] } })),
      'spec.subsets[0].requiredNodeSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
    ['a preferred term weight of 0', ws(subsets({ name: 'a', preferredNodeSelector: [{ weight: 0, preference: zone('a') }] })),
      'spec.subsets[0].preferredNodeSelector[0].weight: Invalid value: 0: must be in the range 1-100'],
    ['an invalid toleration', ws(subsets({ name: 'a', tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] })), "value must be empty when `operator` is 'Exists'"],
    ['mixed maxReplicas types', ws(subsets({ name: 'a', maxReplicas: 1 }, { name: 'b', maxReplicas: '50%' }, { name: 'c' })),
      'spec.subsets[1].maxReplicas: Invalid value: "50%": the maxReplicas type of all subsets must be the same'],
    ['a percent maxReplicas for a StatefulSet', ws({ ...ref('apps.kruise.io/v1beta1', 'StatefulSet'), ...subsets({ name: 'a', maxReplicas: '50%' }, { name: 'b' }) }),
      'the maxReplicas type must be Int for StatefulSet'],
    ['a negative maxReplicas', ws(subsets({ name: 'a', maxReplicas: -1 }, { name: 'b' })), 'spec.subsets[0].maxReplicas: Invalid value: -1: maxReplicas is not valid for subset'],
    ['percentages above 100%', ws(subsets({ name: 'a', maxReplicas: '60%' }, { name: 'b', maxReplicas: '50%' })), "the sum of all subset's maxReplicas exceeds 100% is no permitted"],
    ['percentages below 100% with a bounded last subset', ws(subsets({ name: 'a', maxReplicas: '30%' }, { name: 'b', maxReplicas: '30%' })),
      'spec.subsets[0].maxReplicas: Invalid value: "30%": maxReplicas sum of all subsets must equal 100% when type is specified as percent'],
    ['an unknown schedule type', ws({ scheduleStrategy: { type: 'Random' } }), "spec.scheduleStrategy.type: Invalid value: \"Random\": ScheduleStrategy's type is not valid"],
    ['an adaptive block with type Fixed', ws({ scheduleStrategy: { type: 'Fixed', adaptive: { rescheduleCriticalSeconds: 10 } } }),
      "spec.scheduleStrategy.type: Invalid value: 10: the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy"],
    ['adaptive with a bounded last subset', ws({ scheduleStrategy: { type: 'Adaptive', adaptive: {} }, ...subsets({ name: 'a', maxReplicas: 1 }, { name: 'b', maxReplicas: 1 }) }),
      'spec.scheduleStrategy.adaptive: Invalid value: null: the last subset must be not specified when using adaptive scheduleStrategy'],
    ['a reschedule time beyond 295/(n-1)', ws({ scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 296 } } }),
      'spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: Invalid value: 296: rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 295 is not permitted'],
    ['an invalid target filter', ws({ targetFilter: { selector: { matchExpressions: [{ key: 'a', operator: 'Maybe' }] } } }),
      'spec.targetFilter.selector.matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator'],
    ['a target already spread by another WorkloadSpread', ws(ref('apps/v1beta2', 'Deployment', 'taken')),
      'spec.targetRef: Invalid value: {"apiVersion":"apps/v1beta2","kind":"Deployment","name":"taken"}: ws.spec.targetRef is in conflict with other WorkloadSpread other'],
    ['a patch that adds a container without image', ws(subsets({ name: 'a', patch: { spec: { containers: [{ name: 'sidecar' }] } } }, { name: 'b' })),
      'spec.subsets[0].patch.spec.containers[0].image: Required value'],
    ['a patch with an invalid label', ws(subsets({ name: 'a', patch: { metadata: { labels: { 'bad key!': 'x' } } } })), 'spec.subsets[0].patch.metadata.labels: Invalid value: "bad key!"'],
    ['a patch that is not an object', ws(subsets({ name: 'a', patch: [1] })), 'spec.subsets[0].patch: Invalid value: [1]: failed to apply the patch'],
    ['a patch breaking the pod template of a CloneSet target', ws({ ...ref('apps.kruise.io/v1beta1', 'CloneSet', 'clone'), ...subsets({ name: 'a', patch: { spec: { dnsPolicy: 'Sometimes' } } }) }),
      'spec.subsets[0].patch.spec.dnsPolicy: Unsupported value: "Sometimes"'],
  ];
  for (const [name, obj, fragment] of invalid) {
    test(`rejects ${name}`, async () => {
      const msgs = await validate({ object: obj });
      assertSomeMessage(msgs, fragment);
    });
  }

  const valid: [string, KObject][] = [
    ['the base manifest', ws()],
    ['percentages that add up to 100%', ws(subsets({ name: 'a', maxReplicas: '50%' }, { name: 'b', maxReplicas: '50%' }))],
    ['percentages below 100% with an unbounded last subset', ws(subsets({ name: 'a', maxReplicas: '30%' }, { name: 'b' }))],
    ['adaptive scheduling', ws({ scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10, disableSimulationSchedule: true } } })],
    ['an Advanced StatefulSet target with integers', ws({ ...ref('apps.kruise.io/v1beta1', 'StatefulSet'), ...subsets({ name: 'a', maxReplicas: 1 }, { name: 'b' }) })],
    ['a Job target', ws(ref('batch/v1', 'Job'))],
    ['a whitelisted custom workload', ws(ref('example.io/v1', 'GameSet'))],
    ['a valid patch, tolerations and preferred terms', ws(subsets({
      name: 'a', requiredNodeSelector: zone('a'), preferredNodeSelector: [{ weight: 10, preference: zone('a') }],
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
      patch: { metadata: { labels: { subset: 'a' } }, spec: { containers: [{ name: 'main', resources: { limits: { cpu: '1' } } }] } },
    }, { name: 'b' }))],
    ['a patch on a target that does not exist yet', ws({ ...ref('apps/v1', 'Deployment', 'later'), ...subsets({ name: 'a', patch: { spec: { containers: [{ name: 'sidecar' }] } } }) })],
    ['the WorkloadSpread that owns the target', ws(ref('apps/v1', 'Deployment', 'taken'), 'other')],
    ['a target filter', ws({ targetFilter: { selector: { matchLabels: { tier: 'front' } }, replicasPathList: ['spec.replicas'] } })],
  ];
  for (const [name, obj] of valid) {
    test(`accepts ${name}`, async () => assert.deepEqual(await validate({ object: obj }), []));
  }

  test('v1alpha1 requests name the v1alpha1 subset fields', async () => {
    const obj = ws(subsets({ name: 'a', requiredNodeSelector: { matchExpressions: [{ key: 'zone', operator: 'Near' }] }, preferredNodeSelector: [{ weight: 101, preference: {} }] }));
    const msgs = await validate({ object: obj, version: 'v1alpha1' });
    assert.ok(msgs.some((m) => m.startsWith('spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].operator')), JSON.stringify(msgs));
    assert.ok(msgs.some((m) => m.startsWith('spec.subsets[0].preferredNodeSelectorTerms[0].weight')), JSON.stringify(msgs));
  });

  test('the whitelist is read from the configured namespace', async () => {
    const hooks = createWorkloadSpreadWebhooks({ kruiseNamespace: 'elsewhere' });
    const input = admissionInput({ object: ws(ref('example.io/v1', 'GameSet')), objects, gates: { WorkloadSpread: true } });
    assert.deepEqual(messages(await hooks.validate!(input)), ["spec.targetRef: Invalid value: {\"apiVersion\":\"example.io/v1\",\"kind\":\"GameSet\",\"name\":\"x\"}: TargetReference's GroupKind is not permitted."]);
  });
});

describe('WorkloadSpread gate, update and codes', () => {
  test('a disabled gate denies with 403', async () => {
    await assert.rejects(validate({ object: ws(), gates: {} }),
      (err: unknown) => err instanceof AdmissionDenied && err.code === 403 && err.message === 'feature-gate WorkloadSpread is not enabled');
  });

  test('the target may not change, but its version may', async () => {
    const update = (next: KObject) => validate({ operation: 'UPDATE', object: next, oldObject: ws() });
    assert.deepEqual(await update(ws(ref('apps/v1', 'Deployment', 'web2'))),
      ['spec.targetRef: Invalid value: {"apiVersion":"apps/v1","kind":"Deployment","name":"web2"}: change TargetReference is not permitted for WorkloadSpread']);
    assert.deepEqual(await update(ws(ref('apps/v1beta1', 'Deployment', 'web'))), []);
  });

  test('field errors deny with 400 and DELETE is not validated', async () => {
    assert.equal(workloadSpreadWebhooks.invalidCode, 400);
    assert.equal(workloadSpreadWebhooks.default, undefined);
    assert.deepEqual(await workloadSpreadWebhooks.validate!(admissionInput({ operation: 'DELETE', oldObject: ws() })), []);
  });
});
