import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import type { KObject } from '../../meta.js';
import { scenarioExamples } from '../ops/scenario-examples.fixture.js';
import { specExamples } from '../ops/spec-examples.fixture.js';
import { workloadSpecManifests } from '../workloads/spec-manifests.fixture.js';
import { conversionKinds, convertKruiseObject, hubVersionOf } from './index.js';
import { deepFreeze, manifest, schemaProblems } from './test-kit.js';

const multiVersion = [
  'CloneSet', 'StatefulSet', 'DaemonSet', 'UnitedDeployment', 'WorkloadSpread', 'BroadcastJob', 'AdvancedCronJob', 'SidecarSet',
  'ContainerRecreateRequest', 'ImagePullJob', 'ImageListPullJob', 'NodeImage', 'ResourceDistribution', 'PersistentPodState',
  'PodUnavailableBudget',
];

describe('conversion registry', () => {
  test('conversionKinds lists every kind served as v1alpha1 and v1beta1, with hub v1beta1', () => {
    const kinds = conversionKinds();
    assert.deepEqual(kinds.map((k) => k.kind).sort(), [...multiVersion].sort());
    for (const k of kinds) {
      assert.deepEqual(k.versions, ['v1alpha1', 'v1beta1'], k.kind);
      assert.equal(k.hub, 'v1beta1', k.kind);
      assert.equal(k.group, k.kind === 'PodUnavailableBudget' ? 'policy.kruise.io' : 'apps.kruise.io');
    }
  });

  test('hubVersionOf names the storage version', () => {
    assert.equal(hubVersionOf('apps.kruise.io', 'CloneSet'), 'v1beta1');
    assert.equal(hubVersionOf('policy.kruise.io', 'PodUnavailableBudget'), 'v1beta1');
    assert.equal(hubVersionOf('apps.kruise.io', 'EphemeralJob'), 'v1alpha1');
    assert.equal(hubVersionOf('apps.kruise.io', 'Pod'), undefined);
  });

  test('every multi-version kind converts both ways and never mutates its input', () => {
    for (const { group, kind } of conversionKinds()) {
      const alpha = deepFreeze({ apiVersion: `${group}/v1alpha1`, kind, metadata: { name: 'x', namespace: 'ns' }, spec: {} } as KObject);
      const beta = convertKruiseObject(alpha, `${group}/v1beta1`);
      assert.equal(beta.apiVersion, `${group}/v1beta1`, kind);
      assert.equal(beta.kind, kind);
      assert.deepEqual(beta.metadata, alpha.metadata, kind);
      assert.equal(convertKruiseObject(deepFreeze(beta), `${group}/v1alpha1`).apiVersion, `${group}/v1alpha1`, kind);
    }
  });

  test('the same version returns the object itself; one-version kinds convert only to themselves', () => {
    const obj: KObject = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'x' } };
    assert.equal(convertKruiseObject(obj, 'apps.kruise.io/v1beta1'), obj);
    const ej: KObject = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: { name: 'e' } };
    assert.equal(convertKruiseObject(ej, 'apps.kruise.io/v1alpha1'), ej);
    assert.throws(() => convertKruiseObject(ej, 'apps.kruise.io/v1beta1'), {
      name: 'ConversionError', message: 'EphemeralJob.apps.kruise.io has no served version v1beta1 (served: v1alpha1)',
    });
  });

  test('unknown kinds, groups and versions are errors with a clear message', () => {
    const cs: KObject = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'x' } };
    assert.throws(() => convertKruiseObject({ ...cs, kind: 'Deployment' }, 'apps.kruise.io/v1beta1'), { message: 'Deployment.apps.kruise.io is not a Kruise kind' });
    assert.throws(() => convertKruiseObject(cs, 'policy.kruise.io/v1beta1'), { message: 'cannot convert CloneSet from group apps.kruise.io to group policy.kruise.io' });
    assert.throws(() => convertKruiseObject(cs, 'apps.kruise.io/v2'), { message: 'CloneSet.apps.kruise.io has no served version v2 (served: v1alpha1, v1beta1)' });
    assert.throws(() => convertKruiseObject(cs, 'v1beta1'), { message: 'invalid apiVersion "v1beta1": want <group>/<version>' });
    assert.throws(() => convertKruiseObject({ ...cs, apiVersion: undefined }, 'apps.kruise.io/v1beta1'), /invalid apiVersion undefined/);
  });
});

/** The workload example manifests (CloneSet, ASTS, ADS, WorkloadSpread, UnitedDeployment); the other kinds' are specExamples. */
function workloadManifests(): KObject[] {
  const out: KObject[] = [];
  for (const { yaml } of workloadSpecManifests) {
    for (const doc of parseAllDocuments(yaml)) {
      const obj = doc.toJS() as KObject | null;
      if (typeof obj?.apiVersion === 'string' && /^(apps|policy)\.kruise\.io\//.test(obj.apiVersion)) out.push(obj);
    }
  }
  return out;
}

describe('every example manifest, converted to each served version', () => {
  const examples = [
    ...[...specExamples, ...scenarioExamples].map((e) => ({ name: e.name, obj: manifest(e.yaml) })),
    ...workloadManifests().map((obj) => ({ name: `${obj.kind} ${obj.metadata?.name} (spec)`, obj })),
  ].filter((e) => multiVersion.includes(String(e.obj.kind)));

  test('is valid for the target version (nothing its schema would prune), except the documented failure', () => {
    assert.ok(examples.length > 20, `only ${examples.length} examples`);
    for (const { name, obj } of examples) {
      const group = String(obj.apiVersion).split('/')[0];
      for (const version of ['v1alpha1', 'v1beta1']) {
        const target = `${group}/${version}`;
        if (name === 'AdvancedCronJob v1beta1 with an ImageListPullJob template' && version === 'v1alpha1') {
          assert.throws(() => convertKruiseObject(obj, target), /imageListPullJobTemplate/);
          continue;
        }
        const converted = convertKruiseObject(deepFreeze(obj), target);
        assert.deepEqual(schemaProblems(converted), { unknown: [], errors: [] }, `${name} → ${version}`);
      }
    }
  });
});
