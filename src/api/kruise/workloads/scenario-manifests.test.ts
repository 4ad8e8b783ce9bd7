/**
 * The manifests the acceptance scenarios derive from the base examples (docs/design/cloneset.md §13, docs/design/advanced-statefulset.md §12,
 * docs/design/advanced-daemonset.md §11; docs/design/kruise-api.md §10), through the CRD schema. Cases the spec says are *rejected* are
 * rejected by the validating webhooks, so the schema must let them through (an enum or bound here
 * would replace the webhook's contractual message); a few real schema-level errors are checked too.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdOf } from '../define-kind.js';
import { applyDefaults, pruneUnknownFields, validateAgainstSchema, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import { fieldErrorMessage } from '../../../machinery/errors.js';
import { workloadKinds } from './index.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON merge patch (RFC 7386) of `patch` onto a copy of `base`. */
function merge(base: unknown, patch: unknown): unknown {
  if (!isObj(patch) || !isObj(base)) return structuredClone(patch);
  const out: Obj = structuredClone(base);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v);
  }
  return out;
}

function admit(manifest: Obj): { pruned: string[]; errors: string[] } {
  const [group, version] = String(manifest.apiVersion).split('/');
  const def = workloadKinds.find((k) => k.group === group && k.kind === manifest.kind)!;
  const crd = crdOf(def) as unknown as { spec: { versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
  const schema = crd.spec.versions.find((v) => v.name === version)!.schema.openAPIV3Schema;
  const obj = structuredClone(manifest);
  const pruned = pruneUnknownFields(schema, obj);
  applyDefaults(schema, obj);
  return { pruned, errors: validateAgainstSchema(schema, obj).map(fieldErrorMessage) };
}

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.25-alpine' }] } });
const CS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'demo' }, spec: { replicas: 3, selector: { matchLabels: { app: 'demo' } }, template: template('demo') } };
const STS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'web' }, spec: { replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template('web') } };
const ADS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } };
const term = (zone: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] });
const WS = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread', namespace: 'ws1' },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [{ name: 'za', maxReplicas: 2, requiredNodeSelectorTerm: term('a') }, { name: 'zb', requiredNodeSelectorTerm: term('b') }] },
};
const UD = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: { name: 'demo', namespace: 'ud1' },
  spec: {
    replicas: 5, selector: { matchLabels: { app: 'demo' } },
    template: { cloneSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template: template('demo') } } },
    topology: { subsets: ['a', 'b', 'c'].map((z) => ({ name: z, nodeSelectorTerm: term(z) })) },
  },
};
const ru = (rollingUpdate: Obj) => ({ spec: { updateStrategy: { rollingUpdate } } });

/** [scenario, base, merge patch]: all must pass the schema untouched. */
const accepted: [string, Obj, Obj][] = [
  ['C3 v1alpha1 flat strategy', CS, { apiVersion: 'apps.kruise.io/v1alpha1', spec: { updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } } }],
  ['C4 maxUnavailable', CS, merge(ru({ maxUnavailable: 1 }), { spec: { replicas: 4 } }) as Obj],
  ['C6 grace period', CS, ru({ podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } })],
  ['C8 partition percent', CS, ru({ partition: '40%' })],
  ['C9 podsToDelete', CS, { spec: { scaleStrategy: { podsToDelete: ['demo-abcde'] } } }],
  ['C10 surge', CS, ru({ maxSurge: 1, maxUnavailable: 0 })],
  ['C10 rejected by webhook: 0/0', CS, ru({ maxSurge: 0, maxUnavailable: 0 })],
  ['C10 rejected by webhook: InPlaceOnly + surge', CS, ru({ podUpdatePolicy: 'InPlaceOnly', maxSurge: 1 })],
  ['C11 paused', CS, ru({ paused: true })],
  ['C11 OnDelete', CS, { spec: { updateStrategy: { type: 'OnDelete' } } }],
  ['C12 preDelete hook', CS, { spec: { lifecycle: { preDelete: { labelsHandler: { 'example.io/hold': 'true' } } } } }],
  ['C13 inPlaceUpdate hook', CS, { spec: { lifecycle: { inPlaceUpdate: { finalizersHandler: ['example.io/gate'], markPodNotReady: true } } } }],
  ['C14 claims and reuse', CS, { spec: { scaleStrategy: { enablePVCReuse: true }, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } }],
  ['C15 deadline', CS, { spec: { progressDeadlineSeconds: 10 } }],
  ['image pre-download fields', CS, ru({ inPlaceUpdateStrategy: { imagePreDownloadParallelism: 10, imagePreDownloadMinUpdatedReadyPods: 3, imagePreDownloadTimeoutSeconds: 600 } })],
  ['priority and scatter', CS, ru({ priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { a: 'b' } } }], orderPriority: [{ orderedKey: 'k' }] }, scatterStrategy: [{ key: 'k', value: 'v' }] })],
  ['S2 v1alpha1', STS, { apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'web2' } }],
  ['S5 partition', STS, merge(ru({ partition: 3 }), { spec: { replicas: 5 } }) as Obj],
  ['S7 rejected by webhook', STS, ru({ maxUnavailable: 2, minReadySeconds: 301, unorderedUpdate: {} })],
  ['S7 rejected by webhook: bad range', STS, { spec: { reserveOrdinals: ['5-2'] } }],
  ['S8 parallel', STS, merge(ru({ maxUnavailable: 2 }), { spec: { podManagementPolicy: 'Parallel', replicas: 4 } }) as Obj],
  ['S9 reserveOrdinals', STS, { spec: { reserveOrdinals: [1, '3-4'] } }],
  ['S10 ordinals', STS, { spec: { ordinals: { start: 10 } } }],
  ['S11 retention', STS, { spec: { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Delete' }, volumeClaimUpdateStrategy: { type: 'OnDelete' } } }],
  ['S12 scale limit', STS, { spec: { podManagementPolicy: 'Parallel', replicas: 6, scaleStrategy: { maxUnavailable: 2 } } }],
  ['S14 unordered', STS, ru({ unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { canary: 'true' } } }] } } })],
  ['D4 in place', ADS, ru({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 })],
  ['D6 partition percent', ADS, ru({ partition: '50%' })],
  ['D7 node selector', ADS, ru({ selector: { matchLabels: { canary: 'true' } }, paused: true })],
  ['D9 surge', ADS, merge(ru({ maxSurge: 1, maxUnavailable: 0 }), { spec: { minReadySeconds: 3 } }) as Obj],
  ['D10 partitioned scaling', ADS, merge(ru({ partition: 3 }), { spec: { scaleStrategy: { partitionedScaling: true } } }) as Obj],
  ['D11 preDelete', ADS, { spec: { lifecycle: { preDelete: { labelsHandler: { 'example.io/hold': 'true' } } } } }],
  ['D13 rejected by webhook', ADS, merge(ru({ maxUnavailable: '120%' }), { spec: { lifecycle: { inPlaceUpdate: { finalizersHandler: ['x'] } } } }) as Obj],
  ['D13 v1alpha1 Surging', ADS, merge(ru({ rollingUpdateType: 'Surging', partition: 1 }), { apiVersion: 'apps.kruise.io/v1alpha1', metadata: { annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' } } }) as Obj],
  ['WS 3/4 over-max and patch', WS, { spec: { subsets: [{ name: 'za', maxReplicas: 1, requiredNodeSelectorTerm: term('a'), patch: { metadata: { labels: { tier: 'za' } } } }, { name: 'zb', maxReplicas: '50%' }] } }],
  ['WS 6 adaptive', WS, { spec: { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10, disableSimulationSchedule: true } } } }],
  ['WS 9 v1beta1 names', WS, { apiVersion: 'apps.kruise.io/v1beta1', spec: { targetFilter: { selector: { matchLabels: { app: 'web' } }, replicasPathList: ['spec.replicas'] }, subsets: [{ name: 'za', requiredNodeSelector: term('a'), preferredNodeSelector: [{ weight: 1, preference: term('a') }], tolerations: [{ key: 'k', operator: 'Exists' }] }] } }],
  ['UD 2 specified', UD, { spec: { replicas: 6, topology: { subsets: [{ name: 'a', replicas: 1 }, { name: 'b', replicas: '50%' }, { name: 'c' }] } } }],
  ['UD 3 min/max', UD, { spec: { topology: { subsets: [{ name: 'a', minReplicas: 2, maxReplicas: 4 }, { name: 'b', minReplicas: 2 }] } } }],
  ['UD 5 manual partition, sts template', UD, { spec: { template: { cloneSetTemplate: null, statefulSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template: template('demo') } } }, updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 2 } } } } }],
  ['UD 7 adaptive', UD, { spec: { topology: { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10, unschedulableDuration: 60, reserveUnschedulablePods: true } } } } }],
  ['UD v1beta1 with ASTS template', UD, { apiVersion: 'apps.kruise.io/v1beta1', spec: { template: { cloneSetTemplate: null, advancedStatefulSetTemplate: { metadata: {}, spec: { selector: { matchLabels: { app: 'demo' } }, template: template('demo'), reserveOrdinals: [1] } } } } }],
];

/** [case, base, merge patch, expected error messages]: schema-level errors. */
const rejected: [string, Obj, Obj, string[]][] = [
  ['ASTS partition is an integer only', STS, ru({ partition: '50%' }),
    ['spec.updateStrategy.rollingUpdate.partition: Invalid value: "string": spec.updateStrategy.rollingUpdate.partition in body must be of type integer: "string"']],
  ['v1alpha1 ADS partition is an integer only', ADS, merge(ru({ partition: '50%' }), { apiVersion: 'apps.kruise.io/v1alpha1' }) as Obj,
    ['spec.updateStrategy.rollingUpdate.partition: Invalid value: "string": spec.updateStrategy.rollingUpdate.partition in body must be of type integer: "string"']],
  ['UD update strategy type is an enum', UD, { spec: { updateStrategy: { type: 'Auto' } } },
    ['spec.updateStrategy.type: Unsupported value: "Auto": supported values: "Manual", ""']],
  ['WS needs targetRef and subsets', WS, { spec: { targetRef: null, subsets: null } }, ['spec.subsets: Required value', 'spec.targetRef: Required value']],
  ['CloneSet needs selector and template', CS, { spec: { selector: null, template: null } }, ['spec.selector: Required value', 'spec.template: Required value']],
];

describe('scenario manifests', () => {
  for (const [name, base, patch] of accepted) {
    test(`accepted: ${name}`, () => {
      assert.deepEqual(admit(merge(base, patch) as Obj), { pruned: [], errors: [] });
    });
  }
  for (const [name, base, patch, expected] of rejected) {
    test(`schema error: ${name}`, () => {
      assert.deepEqual(admit(merge(base, patch) as Obj).errors.sort(), expected);
    });
  }
});
