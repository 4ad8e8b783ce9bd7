/**
 * Every apps.kruise.io workload example manifest (spec-manifests.fixture.ts: OpenKruise's documented
 * examples) goes through the generated CRD schema of its version as the API server would: nothing is
 * pruned, nothing fails.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { crdOf, type KindDefinition } from '../define-kind.js';
import { applyDefaults, pruneUnknownFields, validateAgainstSchema, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import { fieldErrorMessage } from '../../../machinery/errors.js';
import { workloadKinds } from './index.js';
import { workloadSpecManifests } from './spec-manifests.fixture.js';

interface Example { name: string; manifest: Record<string, unknown> }

function examples(): Example[] {
  const out: Example[] = [];
  for (const { name, yaml } of workloadSpecManifests) {
    for (const doc of parseAllDocuments(yaml)) {
      const manifest = doc.toJS() as Record<string, unknown> | null;
      if (typeof manifest?.apiVersion === 'string' && manifest.apiVersion.startsWith('apps.kruise.io/')) out.push({ name, manifest });
    }
  }
  return out;
}

function schemaOf(def: KindDefinition, version: string): JSONSchemaProps {
  const crd = crdOf(def) as unknown as { spec: { versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
  return crd.spec.versions.find((v) => v.name === version)!.schema.openAPIV3Schema;
}

/** Prune, default and validate a copy, returning pruned paths and error messages. */
function admit(manifest: Record<string, unknown>): { pruned: string[]; errors: string[]; obj: Record<string, unknown> } {
  const [group, version] = String(manifest.apiVersion).split('/');
  const def = workloadKinds.find((k) => k.group === group && k.kind === manifest.kind);
  if (!def) throw new Error(`no workload kind ${manifest.kind}`);
  const schema = schemaOf(def, version);
  const obj = structuredClone(manifest);
  const pruned = pruneUnknownFields(schema, obj);
  applyDefaults(schema, obj);
  return { pruned, errors: validateAgainstSchema(schema, obj).map(fieldErrorMessage), obj };
}

describe('spec manifests', () => {
  test('every apps.kruise.io workload example validates against its version with nothing pruned', () => {
    const found = examples().filter((e) => workloadKinds.some((k) => k.kind === e.manifest.kind));
    assert.equal(found.length, workloadSpecManifests.length, 'one workload manifest per fixture entry');
    const seen = new Set(found.map((e) => `${e.manifest.apiVersion} ${e.manifest.kind}`));
    for (const expected of ['apps.kruise.io/v1beta1 CloneSet', 'apps.kruise.io/v1beta1 StatefulSet', 'apps.kruise.io/v1beta1 DaemonSet',
      'apps.kruise.io/v1alpha1 WorkloadSpread', 'apps.kruise.io/v1alpha1 UnitedDeployment']) {
      assert.ok(seen.has(expected), `example ${expected} missing from the fixture`);
    }
    for (const e of found) {
      const { pruned, errors } = admit(e.manifest);
      assert.deepEqual({ pruned, errors }, { pruned: [], errors: [] }, e.name);
    }
  });

  test('each example also validates when written through the other version, where the fields exist in both', () => {
    for (const e of examples().filter((x) => workloadKinds.some((k) => k.kind === x.manifest.kind))) {
      const other = String(e.manifest.apiVersion).endsWith('v1beta1') ? 'apps.kruise.io/v1alpha1' : 'apps.kruise.io/v1beta1';
      const { pruned, errors } = admit({ ...e.manifest, apiVersion: other });
      // WorkloadSpread renamed the subset node selectors in v1beta1: the alpha names are unknown there.
      const expectedPruned = e.manifest.kind === 'WorkloadSpread' ? ['spec.subsets[0].requiredNodeSelectorTerm', 'spec.subsets[1].requiredNodeSelectorTerm'] : [];
      assert.deepEqual({ pruned, errors }, { pruned: expectedPruned, errors: [] }, `${e.name} as ${other}`);
    }
  });

  test('the CloneSet example picks up the v1beta1 CRD default only where its parent exists', () => {
    const cs = examples().find((e) => e.manifest.kind === 'CloneSet')!.manifest;
    assert.equal((admit(cs).obj.spec as Record<string, unknown>).scaleStrategy, undefined);
    const withStrategy = admit({ ...cs, spec: { ...(cs.spec as object), scaleStrategy: {} } }).obj.spec as Record<string, unknown>;
    assert.deepEqual(withStrategy.scaleStrategy, { enablePVCReuse: false });
  });
});
