import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import type { SidecarSet } from '../../api/kruise/ops/index.js';
import { invalidExamples } from '../../api/kruise/ops/invalid-examples.fixture.js';
import { scenarioExamples } from '../../api/kruise/ops/scenario-examples.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import type { Client } from '../../client/client.js';
import { admissionInput, admit, assertHasError, assertNoErrors, fakeClient, fromYaml, type InputOptions } from '../testkit.js';
import { createSidecarSetWebhooks, defaultSidecarSetObject, selectorsOverlap, sidecarSetWebhooks as hooks } from './index.js';

type Spec = Record<string, any>; // any: free-form test edits of manifests
const logAgent = (): KObject => fromYaml(specExamples.find((e) => e.name.includes('log-agent'))!.yaml);
const scenario = (name: string): KObject => fromYaml(scenarioExamples.find((e) => e.name.includes(name))!.yaml);
const edit = (obj: KObject, patch: (spec: Spec, obj: KObject) => void): KObject => {
  const copy = structuredClone(obj);
  patch(copy.spec as Spec, copy);
  return copy;
};
const named = (obj: KObject, name: string, annotations?: Record<string, string>): KObject => ({ ...obj, metadata: { ...obj.metadata, name, annotations } });
const revision = (name: string, labels: Record<string, string> = {}): KObject =>
  ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, namespace: 'kruise-system', labels } });
const stored = (obj: KObject): KObject => defaultSidecarSetObject(obj as SidecarSet) as KObject;
const canary = (base: string) => ({ 'apps.kruise.io/sidecarset-canary': 'true', 'apps.kruise.io/sidecarset-base': base });
const run = (obj: KObject, o: InputOptions = {}) => admit(hooks, admissionInput({ object: obj, ...o }));
const withSidecarSets = (...sets: KObject[]): Client => fakeClient({ objects: sets.map(stored) });

describe('SidecarSet defaulting', () => {
  test('a minimal manifest gets every default and both hashes', async () => {
    const out = await hooks.default!(admissionInput({ object: logAgent() })) as any; // any: reading nested defaults
    assert.deepEqual(out.spec.updateStrategy, { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 });
    const c = out.spec.containers[0];
    assert.equal(c.podInjectPolicy, 'BeforeAppContainer');
    assert.deepEqual(c.upgradeStrategy, { upgradeType: 'ColdUpgrade' });
    assert.deepEqual(c.shareVolumePolicy, { type: 'disabled' });
    assert.equal(c.imagePullPolicy, 'IfNotPresent');
    assert.equal(c.terminationMessagePath, '/dev/termination-log');
    assert.equal(c.terminationMessagePolicy, 'File');
    assert.equal(out.spec.revisionHistoryLimit, 10);
    assert.deepEqual(out.spec.injectionStrategy, {});
    assert.deepEqual(out.spec.volumes, [{ name: 'logs', emptyDir: {} }]);
    for (const key of ['kruise.io/sidecarset-hash', 'kruise.io/sidecarset-hash-without-image']) {
      assert.match(out.metadata.annotations[key], /^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
    }
  });

  test('an update keeps each recorded hash whose content did not change (e.g. OpenKruise\'s)', async () => {
    const recorded = { 'kruise.io/sidecarset-hash': 'recorded-hash', 'kruise.io/sidecarset-hash-without-image': 'recorded-without-image' };
    const old = named(stored(logAgent()), 'log-agent', recorded);
    const annotations = async (obj: KObject) => (await hooks.default!(admissionInput({ object: obj, oldObject: old, operation: 'UPDATE' }))).metadata.annotations!;
    const labelled = await annotations({ ...old, metadata: { ...old.metadata, labels: { team: 'infra' } } });
    assert.equal(labelled['kruise.io/sidecarset-hash'], 'recorded-hash');
    assert.equal(labelled['kruise.io/sidecarset-hash-without-image'], 'recorded-without-image');
    const image = await annotations(edit(old, (sp) => { sp.containers[0].image = 'busybox:1.37'; }));
    assert.match(image['kruise.io/sidecarset-hash'], /^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
    assert.equal(image['kruise.io/sidecarset-hash-without-image'], 'recorded-without-image');
    const command = await annotations(edit(old, (sp) => { sp.containers[0].command = ['sleep', '60']; }));
    assert.notEqual(command['kruise.io/sidecarset-hash-without-image'], 'recorded-without-image');
  });

  test('an image change moves only the image hash; other changes move both', async () => {
    const hashes = async (obj: KObject) => {
      const a = (await hooks.default!(admissionInput({ object: obj }))).metadata.annotations!;
      return [a['kruise.io/sidecarset-hash'], a['kruise.io/sidecarset-hash-without-image']];
    };
    const [hash, withoutImage] = await hashes(logAgent());
    const image = await hashes(edit(logAgent(), (s) => { s.containers[0].image = 'busybox:1.36'; }));
    assert.notEqual(image[0], hash);
    assert.equal(image[1], withoutImage);
    const command = await hashes(edit(logAgent(), (s) => { s.containers[0].command = ['sleep', '60']; }));
    assert.notEqual(command[0], hash);
    assert.notEqual(command[1], withoutImage);
    const plainInit = await hashes(edit(logAgent(), (s) => { s.initContainers = [{ name: 'i', image: 'busybox' }]; }));
    assert.equal(plainInit[0], hash, 'plain init containers are not hashed');
    const nativeInit = await hashes(edit(logAgent(), (s) => { s.initContainers = [{ name: 'i', image: 'busybox', restartPolicy: 'Always' }]; }));
    assert.notEqual(nativeInit[0], hash, 'native sidecars are hashed');
  });
});

describe('SidecarSet validation of one object', () => {
  const policy = (p: Spec) => edit(logAgent(), (s) => { s.containers[0].resourcesPolicy = p; });
  const invalid: [string, KObject, string, string][] = [
    ['empty selector', edit(logAgent(), (s) => { s.selector = {}; }), 'spec.selector', 'empty selector is not valid for sidecarset.'],
    ['no selector', edit(logAgent(), (s) => { delete s.selector; }), 'spec.selector', 'no selector defined for SidecarSet'],
    ['bad namespaceSelector', edit(logAgent(), (s) => { s.namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'In' }] }; }),
      'spec.namespaceSelector.matchExpressions[0].values', 'must be specified'],
    ['native init container with the default RollingUpdate', edit(logAgent(), (s) => { s.initContainers = [{ name: 'n', image: 'busybox', restartPolicy: 'Always' }]; }),
      'spec.updateStrategy', 'The initContainer in-place upgrade is not currently supported.'],
    ['no containers', edit(logAgent(), (s) => { delete s.containers; }), 'spec', 'no initContainer or container defined for SidecarSet'],
    ['container without image', edit(logAgent(), (s) => { delete s.containers[0].image; }), 'spec.containers[0].image', 'Required value'],
    ['duplicate volume', edit(logAgent(), (s) => { s.volumes.push({ name: 'logs', emptyDir: {} }); }), 'spec.volumes[1].name', 'Duplicate value'],
    ['unknown podInjectPolicy', edit(logAgent(), (s) => { s.containers[0].podInjectPolicy = 'Middle'; }),
      'spec.containers[0].podInjectPolicy', 'unsupported pod inject policy'],
    ['unknown shareVolumePolicy', edit(logAgent(), (s) => { s.containers[0].shareVolumePolicy = { type: 'on' }; }),
      'spec.containers[0].shareVolumePolicy', 'unsupported share volume policy'],
    ['transferEnv from metadata.name', edit(logAgent(), (s) => { s.containers[0].transferEnv = [{ sourceContainerNameFrom: { fieldRef: { fieldPath: 'metadata.name' } }, envName: 'X' }]; }),
      'spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath', 'error converting fieldPath: field label not supported: metadata.name'],
    ['transferEnv from a bad label key', edit(logAgent(), (s) => { s.containers[0].transferEnv = [{ sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['a b']" } }, envName: 'X' }]; }),
      'spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef', 'name part must consist of alphanumeric characters'],
    ['resourcesPolicy with resources', edit(policy({ resourcesExpr: { limits: { cpu: 'cpu*50%' } } }), (s) => { s.containers[0].resources = { limits: { cpu: '100m' } }; }),
      'spec.containers[0].resourcesPolicy', 'resourcesPolicy and resources cannot be configured together'],
    ['resourcesPolicy with a bad regex', policy({ targetContainersNameRegex: '[invalid(regex', resourcesExpr: { limits: { cpu: 'cpu*50%' } } }),
      'spec.containers[0].resourcesPolicy.targetContainersNameRegex', 'invalid regex pattern'],
    ['resourcesPolicy with an empty regex', policy({ targetContainersNameRegex: '', resourcesExpr: { limits: { cpu: 'cpu*50%' } } }),
      'spec.containers[0].resourcesPolicy.targetContainersNameRegex', 'must not be empty'],
    ['resourcesPolicy without limits or requests', policy({ targetContainersNameRegex: '.*', resourcesExpr: {} }),
      'spec.containers[0].resourcesPolicy.resourcesExpr', 'at least one of limits or requests must be configured'],
    ['resourcesPolicy with max of one argument', policy({ resourcesExpr: { limits: { cpu: 'max(cpu*50%)' } } }),
      'spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu', 'invalid expression'],
    ['resourcesPolicy memory expression using cpu', policy({ resourcesExpr: { requests: { memory: 'cpu*2' } } }),
      'spec.containers[0].resourcesPolicy.resourcesExpr.requests.memory', 'invalid expression'],
    ['resourcesPolicy on a plain init container', edit(logAgent(), (s) => {
      s.updateStrategy = { type: 'NotUpdate' };
      s.initContainers = [{ name: 'i', image: 'busybox', resourcesPolicy: { resourcesExpr: { limits: { cpu: 'cpu' } } } }];
    }), 'spec.initContainers[0].resourcesPolicy', 'resourcesPolicy can only be configured on init containers with restartPolicy Always'],
    ['partition with selector', edit(logAgent(), (s) => { s.updateStrategy = { partition: '20%', selector: { matchLabels: { canary: 'true' } } }; }),
      'spec.updateStrategy', 'Partition and Selector cannot be used together'],
    ['maxUnavailable not a percent', edit(logAgent(), (s) => { s.updateStrategy = { maxUnavailable: 'abc' }; }),
      'spec.updateStrategy.maxUnavailable', 'a valid percent string'],
    ['both priority kinds', edit(logAgent(), (s) => { s.updateStrategy = { priorityStrategy: { orderPriority: [{ orderedKey: 'k' }], weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }] } }; }),
      'spec.updateStrategy.priorityStrategy', 'only one of weightPriority and orderPriority can be used'],
    ['duplicate scatter term', edit(logAgent(), (s) => { s.updateStrategy = { scatterStrategy: [{ key: 'zone', value: 'a' }, { key: 'zone', value: 'a' }] }; }),
      'spec.updateStrategy.scatterStrategy', 'duplicated key=zone value=a'],
    ['revision without a name or version', edit(logAgent(), (s) => { s.injectionStrategy = { revision: { policy: 'Partial' } }; }),
      'spec.injectionStrategy.revision', 'revisionName and customVersion cannot be empty simultaneously'],
    ['revision that does not exist', edit(logAgent(), (s) => { s.injectionStrategy = { revision: { revisionName: 'log-agent-gone' } }; }),
      'spec.injectionStrategy.revision', 'Cannot find specific ControllerRevision'],
    ['patch annotation listed twice', edit(logAgent(), (s) => { s.patchPodMetadata = [{ annotations: { k: 'v' } }, { annotations: { k: 'w' } }]; }),
      'spec.patchPodMetadata', 'patch annotation[k] already exist'],
    ['patch without annotations', edit(logAgent(), (s) => { s.patchPodMetadata = [{ patchPolicy: 'Overwrite' }]; }),
      'spec.patchPodMetadata', 'no annotations defined for SidecarSet'],
    ['patch without a whitelist', edit(logAgent(), (s) => { s.patchPodMetadata = [{ annotations: { k: 'v' } }]; }),
      'spec.patchPodMetadata', 'SidecarSet patch metadata whitelist not found'],
    ['name with an underscore', named(logAgent(), 'log_agent'), 'metadata.name', "sidecarset name must consist of alphanumeric characters or '-'"],
  ];
  for (const [name, obj, path, fragment] of invalid) {
    test(`rejects: ${name}`, async () => assertHasError((await run(obj)).errors, path, fragment));
  }

  test('rejects the schema fixture with a bad revision policy and a nameless container', async () => {
    const obj = fromYaml(invalidExamples.find((e) => e.name.startsWith('SidecarSet revision policy'))!.yaml);
    const { errors } = await run(obj);
    assertHasError(errors, 'spec.injectionStrategy.revision.policy', 'Invalid policy Sometimes, supported: [Always, Partial]');
    assertHasError(errors, 'spec.containers[0].name', 'Required value');
  });

  test('rejects the v1alpha1 scenario canary: it rolls and has a native sidecar under RollingUpdate', async () => {
    const obj = scenario('SidecarSet v1alpha1');
    const { errors } = await run(obj, { client: fakeClient({ objects: [stored(logAgent()), revision('x', { 'kruise.io/sidecarset-name': 'envoy', 'apps.kruise.io/sidecarset-custom-version': 'v1' })] }) });
    assertHasError(errors, 'metadata', 'RollingUpdate is not supported for canary sidecarSet');
    assertHasError(errors, 'spec.updateStrategy', 'The initContainer in-place upgrade is not currently supported.');
  });

  test('canary rules: base exists, is not itself, is not a canary, keeps its name', async () => {
    const notUpdate = (obj: KObject) => edit(obj, (s) => { s.updateStrategy = { type: 'NotUpdate' }; });
    const elsewhere = edit(logAgent(), (s) => { s.selector = { matchLabels: { app: 'elsewhere' } }; s.updateStrategy = { type: 'NotUpdate' }; });
    const client = withSidecarSets(logAgent(), named(elsewhere, 'canary-base', canary('log-agent')));
    const cases: [KObject, string][] = [
      [named(notUpdate(logAgent()), 'c1', canary('c1')), 'base sidecarSet cannot be itself'],
      [named(notUpdate(logAgent()), 'c1', canary('missing')), 'fetch base sidecarSet[missing] failed: sidecarsets.apps.kruise.io "missing" not found'],
      [named(notUpdate(logAgent()), 'c1', canary('canary-base')), 'base sidecarSet cannot be canary'],
    ];
    for (const [obj, fragment] of cases) assertHasError((await run(obj, { client })).errors, 'metadata', fragment);
    const ok = named(notUpdate(logAgent()), 'c1', canary('log-agent'));
    assertNoErrors((await run(ok, { client })).errors);
    const moved = named(notUpdate(logAgent()), 'c1', canary('other'));
    const { errors } = await run(moved, { client: withSidecarSets(logAgent(), named(logAgent(), 'other')), oldObject: stored(ok) });
    assertHasError(errors, 'metadata', 'annotations[apps.kruise.io/sidecarset-base] is immutable');
  });

  test('patchPodMetadata follows the whitelist, or anything goes with the defaults gate', async () => {
    const obj = edit(logAgent(), (s) => { s.patchPodMetadata = [{ annotations: { 'oom-score': '1' }, patchPolicy: 'Overwrite' }]; });
    const whitelist = (exprs: string[]) => fakeClient({ objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
      data: { SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: exprs }] }) } }] });
    assertNoErrors((await run(obj, { client: whitelist(['^oom-.*$']) })).errors);
    assertHasError((await run(obj, { client: whitelist(['^cpu-.*$']) })).errors, 'spec.patchPodMetadata', 'sidecarSet patch metadata annotation(oom-score) is not allowed');
    assertNoErrors((await run(obj, { gates: { SidecarSetPatchPodMetadataDefaultsAllowed: true } })).errors);
  });

  test('accepts the spec manifest and the v1beta1 native-sidecar scenario', async () => {
    assertNoErrors((await run(logAgent())).errors);
    const native = scenario('customVersion and order priority');
    assertNoErrors((await run(native, { client: fakeClient({ objects: [revision('native-123')] }) })).errors);
    const byVersion = edit(native, (s) => { s.injectionStrategy = { revision: { customVersion: 'v2' } }; });
    const labelled = revision('native-456', { 'kruise.io/sidecarset-name': 'native', 'apps.kruise.io/sidecarset-custom-version': 'v2' });
    assertNoErrors((await run(byVersion, { client: fakeClient({ objects: [labelled] }) })).errors);
  });

  test('updates may drop containers but not add them or change upgradeType', async () => {
    const old = stored(edit(logAgent(), (s) => { s.containers.push({ name: 'second', image: 'busybox:1.35' }); }));
    assertNoErrors((await run(logAgent(), { oldObject: old })).errors);
    const added = edit(logAgent(), (s) => { s.containers.push({ name: 'x', image: 'busybox:1.35' }); });
    assertHasError((await run(added, { oldObject: old })).errors, 'spec.containers[1].name', 'container x is not found');
    const hot = edit(logAgent(), (s) => { s.containers[0].upgradeStrategy = { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' }; });
    assertHasError((await run(hot, { oldObject: old })).errors, 'spec.containers[0].upgradeStrategy.upgradeType', 'container agent upgradeType is immutable');
  });
});

describe('SidecarSet conflicts with other SidecarSets', () => {
  const other = (patch: (s: Spec) => void) => named(edit(logAgent(), patch), 'other');
  const client = withSidecarSets(logAgent());
  test('the same container name on overlapping selectors is rejected', async () => {
    assertHasError((await run(other(() => undefined), { client })).errors, 'spec.containers', 'container agent already exist in log-agent');
    const init = other((s) => { s.updateStrategy = { type: 'NotUpdate' }; s.initContainers = [{ name: 'i', image: 'busybox' }]; s.containers[0].name = 'agent2'; });
    const withInit = withSidecarSets(edit(logAgent(), (s) => { s.updateStrategy = { type: 'NotUpdate' }; s.initContainers = [{ name: 'i', image: 'busybox' }]; }));
    assertHasError((await run(init, { client: withInit })).errors, 'spec.initContainers', 'container i already exist in log-agent');
  });

  test('volumes may be shared only with the same definition', async () => {
    assertNoErrors((await run(other((s) => { s.containers[0].name = 'agent2'; }), { client })).errors);
    const hostPath = other((s) => { s.containers[0].name = 'agent2'; s.volumes = [{ name: 'logs', hostPath: { path: '/var/log' } }]; });
    assertHasError((await run(hostPath, { client })).errors, 'spec.volumes', 'volume logs is in conflict with sidecarset log-agent');
  });

  test('disjoint pod or namespace selectors, and a canary of the base, do not conflict', async () => {
    assertNoErrors((await run(other((s) => { s.selector = { matchLabels: { app: 'api' } }; }), { client })).errors);
    const nsA = withSidecarSets(edit(logAgent(), (s) => { s.namespaceSelector = { matchLabels: { team: 'a' } }; }));
    assertNoErrors((await run(other((s) => { s.namespaceSelector = { matchLabels: { team: 'b' } }; }), { client: nsA })).errors);
    const shadow = named(edit(logAgent(), (s) => { s.updateStrategy = { type: 'NotUpdate' }; }), 'shadow', canary('log-agent'));
    assertNoErrors((await run(shadow, { client })).errors);
  });

  test('patched annotations conflict when either side overwrites', async () => {
    const gates = { SidecarSetPatchPodMetadataDefaultsAllowed: true };
    const patching = (policy: string) => (s: Spec) => { s.patchPodMetadata = [{ annotations: { k: 'v' }, patchPolicy: policy }]; };
    const existing = withSidecarSets(edit(logAgent(), patching('Overwrite')));
    const mine = other((s) => { s.containers[0].name = 'agent2'; patching('MergePatchJson')(s); });
    assertHasError((await run(mine, { client: existing, gates })).errors, 'spec.patchPodMetadata', 'annotation k is in conflict with sidecarset log-agent');
    const retained = other((s) => { s.containers[0].name = 'agent2'; patching('Retain')(s); });
    assertNoErrors((await run(retained, { client: existing, gates })).errors);
  });

  test('selector overlap is conservative', () => {
    const sel = (matchLabels: Record<string, string>, matchExpressions: Spec[] = []) => ({ matchLabels, matchExpressions });
    assert.equal(selectorsOverlap(sel({ app: 'a' }), sel({ app: 'b' })), false);
    assert.equal(selectorsOverlap(sel({ app: 'a' }), sel({ tier: 'x' })), true);
    assert.equal(selectorsOverlap(sel({}, [{ key: 'app', operator: 'In', values: ['a', 'b'] }]), sel({}, [{ key: 'app', operator: 'NotIn', values: ['a', 'b'] }])), false);
    assert.equal(selectorsOverlap(sel({}, [{ key: 'app', operator: 'In', values: ['a', 'b'] }]), sel({}, [{ key: 'app', operator: 'NotIn', values: ['a'] }])), true);
    assert.equal(selectorsOverlap(sel({}, [{ key: 'app', operator: 'Exists' }]), sel({}, [{ key: 'app', operator: 'DoesNotExist' }])), false);
    assert.equal(selectorsOverlap(undefined, sel({ app: 'a' })), true);
  });

  test('the Kruise namespace is configurable; 422 on field errors', async () => {
    const custom = createSidecarSetWebhooks({ kruiseNamespace: 'ops' });
    const obj = edit(logAgent(), (s) => { s.injectionStrategy = { revision: { revisionName: 'r1' } }; });
    const inOps = fakeClient({ objects: [{ ...revision('r1'), metadata: { name: 'r1', namespace: 'ops' } }] });
    assertNoErrors((await admit(custom, admissionInput({ object: obj, client: inOps }))).errors);
    assertHasError((await admit(hooks, admissionInput({ object: obj, client: inOps }))).errors, 'spec.injectionStrategy.revision', 'Cannot find specific ControllerRevision');
    assert.equal(hooks.invalidCode, 422);
  });
});
