import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdOf, type KindDefinition } from '../define-kind.js';
import { checkStructural, pruneUnknownFields, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import { cloneSetKind, daemonSetKind, statefulSetKind, unitedDeploymentKind, workloadKinds, workloadSpreadKind } from './index.js';

interface CrdVersion {
  name: string; served: boolean; storage: boolean;
  schema: { openAPIV3Schema: JSONSchemaProps };
  subresources?: { status?: object; scale?: Record<string, string> };
  additionalPrinterColumns?: { name: string; jsonPath: string; type: string; priority?: number }[];
}
interface Crd { metadata: { name: string }; spec: { group: string; scope: string; names: Record<string, unknown>; versions: CrdVersion[] } }

const crd = (def: KindDefinition) => crdOf(def) as unknown as Crd;
const version = (def: KindDefinition, name: string) => crd(def).spec.versions.find((v) => v.name === name)!;
const columns = (def: KindDefinition, v: string) => version(def, v).additionalPrinterColumns!.map((c) => `${c.name}=${c.jsonPath}${c.priority ? ' p1' : ''}`);

describe('workload kinds', () => {
  test('names, short names and storage versions follow OpenKruise', () => {
    const summary = workloadKinds.map((k) => {
      const c = crd(k);
      const storage = c.spec.versions.filter((v) => v.storage).map((v) => v.name);
      return [c.metadata.name, c.spec.scope, (c.spec.names.shortNames as string[] | undefined)?.join(',') ?? '', c.spec.versions.map((v) => v.name).join(','), storage.join(',')].join(' ');
    });
    assert.deepEqual(summary, [
      'clonesets.apps.kruise.io Namespaced clone v1alpha1,v1beta1 v1beta1',
      'statefulsets.apps.kruise.io Namespaced sts,asts v1alpha1,v1beta1 v1beta1',
      'daemonsets.apps.kruise.io Namespaced daemon,ads v1alpha1,v1beta1 v1beta1',
      'uniteddeployments.apps.kruise.io Namespaced ud v1alpha1,v1beta1 v1beta1',
      'workloadspreads.apps.kruise.io Namespaced ws v1alpha1,v1beta1 v1beta1',
    ]);
    for (const k of workloadKinds) for (const v of crd(k).spec.versions) assert.equal(v.served, true);
  });

  test('every generated schema is structural', () => {
    for (const k of workloadKinds) {
      crd(k).spec.versions.forEach((v, i) => {
        assert.deepEqual(checkStructural(v.schema.openAPIV3Schema, `spec.versions[${i}].schema.openAPIV3Schema`), [], `${k.kind} ${v.name}`);
      });
    }
  });

  test('schemas use only apiextensions keywords (no TypeBox-only ones such as patternProperties or const)', () => {
    const allowed = new Set(['type', 'format', 'description', 'properties', 'required', 'items', 'additionalProperties', 'enum', 'default',
      'nullable', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'x-kubernetes-preserve-unknown-fields',
      'x-kubernetes-int-or-string', 'x-kubernetes-map-type', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys']);
    const walk = (s: JSONSchemaProps, path: string): void => {
      for (const key of Object.keys(s)) assert.ok(allowed.has(key), `${path}: ${key}`);
      for (const [k, p] of Object.entries(s.properties ?? {})) walk(p, `${path}.${k}`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}.*`);
      if (s.items) walk(s.items, `${path}[]`);
    };
    for (const k of workloadKinds) for (const v of crd(k).spec.versions) walk(v.schema.openAPIV3Schema, `${k.kind}/${v.name}`);
  });

  test('printer columns are the same in both versions and match kubectl get output upstream', () => {
    for (const k of workloadKinds) assert.deepEqual(columns(k, 'v1alpha1'), columns(k, 'v1beta1'), k.kind);
    assert.deepEqual(columns(cloneSetKind, 'v1beta1'), [
      'DESIRED=.spec.replicas', 'UPDATED=.status.updatedReplicas', 'UPDATED_READY=.status.updatedReadyReplicas',
      'UPDATED_AVAILABLE=.status.updatedAvailableReplicas', 'READY=.status.readyReplicas', 'TOTAL=.status.replicas',
      'AGE=.metadata.creationTimestamp', 'CONTAINERS=.spec.template.spec.containers[*].name p1',
      'IMAGES=.spec.template.spec.containers[*].image p1', 'SELECTOR=.status.labelSelector p1',
    ]);
    assert.deepEqual(columns(statefulSetKind, 'v1beta1').slice(0, 5), [
      'DESIRED=.spec.replicas', 'CURRENT=.status.replicas', 'UPDATED=.status.updatedReplicas', 'READY=.status.readyReplicas', 'AGE=.metadata.creationTimestamp',
    ]);
    assert.deepEqual(columns(daemonSetKind, 'v1beta1').slice(0, 6), [
      'DESIRED=.status.desiredNumberScheduled', 'CURRENT=.status.currentNumberScheduled', 'READY=.status.numberReady',
      'UP-TO-DATE=.status.updatedNumberScheduled', 'AVAILABLE=.status.numberAvailable', 'AGE=.metadata.creationTimestamp',
    ]);
    assert.deepEqual(columns(unitedDeploymentKind, 'v1beta1'), [
      'DESIRED=.spec.replicas', 'CURRENT=.status.replicas', 'UPDATED=.status.updatedReplicas', 'READY=.status.readyReplicas', 'AGE=.metadata.creationTimestamp',
    ]);
    assert.deepEqual(columns(workloadSpreadKind, 'v1beta1'), [
      'WorkloadName=.spec.targetRef.name', 'WorkloadKind=.spec.targetRef.kind',
      'Adaptive=.spec.scheduleStrategy.type[?(@ == "Adaptive")]', 'Age=.metadata.creationTimestamp',
    ]);
    const age = version(cloneSetKind, 'v1beta1').additionalPrinterColumns!.find((c) => c.name === 'AGE')!;
    assert.equal(age.type, 'date');
  });

  test('scale subresource on CloneSet, ASTS and UnitedDeployment only; status on all', () => {
    const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' };
    for (const k of [cloneSetKind, statefulSetKind, unitedDeploymentKind]) {
      for (const v of crd(k).spec.versions) assert.deepEqual(v.subresources, { status: {}, scale }, `${k.kind} ${v.name}`);
    }
    for (const k of [daemonSetKind, workloadSpreadKind]) {
      for (const v of crd(k).spec.versions) assert.deepEqual(v.subresources, { status: {} }, `${k.kind} ${v.name}`);
    }
  });

  test('selector matchLabels is a map that survives pruning, and template keeps unknown fields', () => {
    const schema = version(cloneSetKind, 'v1beta1').schema.openAPIV3Schema;
    const obj = {
      spec: {
        selector: { matchLabels: { app: 'demo', tier: 'web' } },
        template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'nginx', anything: 1 }] } },
        bogus: true,
      },
    };
    assert.deepEqual(pruneUnknownFields(schema, obj), ['spec.bogus']);
    assert.deepEqual(obj.spec.selector.matchLabels, { app: 'demo', tier: 'web' });
    assert.equal(obj.spec.template.spec.containers[0].anything, 1);
  });

  test('status fields the Go types always serialize are required, as in the upstream CRDs', () => {
    const required = (k: KindDefinition, v: string) => version(k, v).schema.openAPIV3Schema.properties!.status.required?.slice().sort();
    assert.deepEqual(required(cloneSetKind, 'v1beta1'), ['availableReplicas', 'readyReplicas', 'replicas', 'updatedReadyReplicas', 'updatedReplicas']);
    assert.deepEqual(required(statefulSetKind, 'v1beta1'), ['availableReplicas', 'currentReplicas', 'readyReplicas', 'replicas', 'updatedReplicas']);
    assert.deepEqual(required(daemonSetKind, 'v1alpha1'), ['currentNumberScheduled', 'daemonSetHash', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady', 'updatedNumberScheduled']);
    assert.deepEqual(required(unitedDeploymentKind, 'v1beta1'), ['currentRevision', 'replicas', 'updatedReplicas']);
    assert.equal(required(workloadSpreadKind, 'v1beta1'), undefined);
    const spec = (k: KindDefinition) => version(k, 'v1beta1').schema.openAPIV3Schema.properties!.spec.required?.slice().sort();
    assert.deepEqual(spec(cloneSetKind), ['selector', 'template']);
    assert.deepEqual(spec(workloadSpreadKind), ['subsets', 'targetRef']);
    assert.deepEqual(spec(unitedDeploymentKind), ['selector']);
  });
});
