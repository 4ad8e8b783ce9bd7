import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdOf } from '../define-kind.js';
import { applyDefaults, checkStructural, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import { opsKinds } from './index.js';

interface Version { name: string; served: boolean; storage: boolean; schema: { openAPIV3Schema: JSONSchemaProps }; subresources?: Record<string, unknown>; additionalPrinterColumns?: { name: string; jsonPath: string; type: string }[] }
interface CrdSpec { group: string; scope: string; names: { kind: string; plural: string; shortNames?: string[]; categories?: string[] }; versions: Version[] }

const crds = new Map(opsKinds.map((k) => [k.kind, crdOf(k).spec as CrdSpec]));

/** kind → [group, scope, short names, served versions, storage version], per the two specs. */
const expected: Record<string, [string, string, string[], string[], string]> = {
  BroadcastJob: ['apps.kruise.io', 'Namespaced', ['bcj'], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  AdvancedCronJob: ['apps.kruise.io', 'Namespaced', ['acj'], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  SidecarSet: ['apps.kruise.io', 'Cluster', [], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  ContainerRecreateRequest: ['apps.kruise.io', 'Namespaced', ['crr'], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  ImagePullJob: ['apps.kruise.io', 'Namespaced', [], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  ImageListPullJob: ['apps.kruise.io', 'Namespaced', [], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  NodeImage: ['apps.kruise.io', 'Cluster', [], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  ResourceDistribution: ['apps.kruise.io', 'Cluster', ['distributor'], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  PodProbeMarker: ['apps.kruise.io', 'Namespaced', [], ['v1alpha1'], 'v1alpha1'],
  NodePodProbe: ['apps.kruise.io', 'Cluster', [], ['v1alpha1'], 'v1alpha1'],
  PersistentPodState: ['apps.kruise.io', 'Namespaced', [], ['v1alpha1', 'v1beta1'], 'v1beta1'],
  EphemeralJob: ['apps.kruise.io', 'Namespaced', ['ejob'], ['v1alpha1'], 'v1alpha1'],
  PodUnavailableBudget: ['policy.kruise.io', 'Namespaced', ['pub'], ['v1alpha1', 'v1beta1'], 'v1beta1'],
};

/** kind → printer columns "NAME=jsonPath" per served version (docs/design/kruise-api.md §2, upstream markers). */
const age = 'AGE=.metadata.creationTimestamp';
const ipj = ['TOTAL=.status.desired', 'ACTIVE=.status.active', 'SUCCEED=.status.succeeded', 'FAILED=.status.failed', age];
const columns: Record<string, Record<string, string[]>> = {
  BroadcastJob: { v1beta1: ['Desired=.status.desired', 'Active=.status.active', 'Succeeded=.status.succeeded', 'Failed=.status.failed', age] },
  AdvancedCronJob: { v1beta1: ['Schedule=.spec.schedule', 'Type=.status.type', 'LastScheduleTime=.status.lastScheduleTime', age] },
  SidecarSet: { v1beta1: ['MATCHED=.status.matchedPods', 'UPDATED=.status.updatedPods', 'READY=.status.readyPods', age] },
  ContainerRecreateRequest: { v1beta1: ['PHASE=.status.phase', 'POD=.spec.podName', 'NODE=.metadata.labels.crr\\.apps\\.kruise\\.io/node-name', age] },
  ImagePullJob: { v1alpha1: [...ipj, 'MESSAGE=.status.message'], v1beta1: ipj },
  ImageListPullJob: { v1beta1: ['TOTAL=.status.desired', 'SUCCEEDED=.status.succeeded', 'COMPLETED=.status.completed', age] },
  NodeImage: { v1beta1: ['DESIRED=.status.desired', 'PULLING=.status.pulling', 'SUCCEED=.status.succeeded', 'FAILED=.status.failed', age] },
  ResourceDistribution: { v1beta1: ['TOTAL=.status.desired', 'SUCCEED=.status.succeeded', 'FAILED=.status.failed'] },
  PodUnavailableBudget: { v1beta1: ['Allowed=.status.unavailableAllowed', 'Current=.status.currentAvailable', 'Desired=.status.desiredAvailable', 'Total=.status.totalReplicas'] },
  PodProbeMarker: { v1alpha1: [] },
  NodePodProbe: { v1alpha1: [] },
  PersistentPodState: { v1beta1: [] },
};

describe('ops CRDs', () => {
  test('every ops kind is declared once and matches the spec inventory', () => {
    assert.deepEqual([...crds.keys()].sort(), Object.keys(expected).sort());
  });

  for (const [kind, [group, scope, shortNames, served, storage]] of Object.entries(expected)) {
    test(`${kind}: group, scope, names, versions, status subresource`, () => {
      const crd = crds.get(kind)!;
      assert.equal(crd.group, group);
      assert.equal(crd.scope, scope);
      assert.deepEqual(crd.names.shortNames ?? [], shortNames);
      assert.equal(crd.names.categories, undefined);
      assert.deepEqual(crd.versions.filter((v) => v.served).map((v) => v.name), served);
      assert.deepEqual(crd.versions.filter((v) => v.storage).map((v) => v.name), [storage]);
      for (const v of crd.versions) assert.deepEqual(v.subresources, { status: {} });
    });

    test(`${kind}: every version's schema is structural`, () => {
      crds.get(kind)!.versions.forEach((v, i) => {
        assert.deepEqual(checkStructural(v.schema.openAPIV3Schema, `spec.versions[${i}].schema.openAPIV3Schema`), []);
      });
    });
  }

  for (const [kind, byVersion] of Object.entries(columns)) {
    test(`${kind}: printer columns`, () => {
      const crd = crds.get(kind)!;
      for (const v of crd.versions) {
        const want = byVersion[v.name] ?? byVersion.v1beta1;
        assert.deepEqual((v.additionalPrinterColumns ?? []).map((c) => `${c.name}=${c.jsonPath}`), want, v.name);
      }
    });
  }
});

describe('schema defaults declared by the upstream CRDs', () => {
  const schemaOf = (kind: string, version: string) => crds.get(kind)!.versions.find((v) => v.name === version)!.schema.openAPIV3Schema;

  test('SidecarSet revision policy Always and imagePullSecrets name ""', () => {
    for (const version of ['v1alpha1', 'v1beta1']) {
      const obj = { spec: { injectionStrategy: { revision: { revisionName: 'r' } }, imagePullSecrets: [{}] } };
      applyDefaults(schemaOf('SidecarSet', version), obj);
      assert.deepEqual(obj.spec, { injectionStrategy: { revision: { revisionName: 'r', policy: 'Always' } }, imagePullSecrets: [{ name: '' }] });
    }
  });

  test('ContainerRecreateRequest port protocol TCP; probes gRPC service ""', () => {
    const crr = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] } };
    applyDefaults(schemaOf('ContainerRecreateRequest', 'v1beta1'), crr);
    assert.deepEqual(crr.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
    const npp = { spec: { podProbes: [{ probes: [{ probe: { grpc: { port: 9 } } }] }] } };
    applyDefaults(schemaOf('NodePodProbe', 'v1alpha1'), npp);
    assert.deepEqual(npp.spec.podProbes[0].probes[0].probe.grpc, { port: 9, service: '' });
  });

  test('no other kind declares schema defaults', () => {
    const withDefaults = new Set<string>();
    const walk = (s: JSONSchemaProps, kind: string): void => {
      if (s.default !== undefined) withDefaults.add(kind);
      for (const p of Object.values(s.properties ?? {})) walk(p, kind);
      if (s.items) walk(s.items, kind);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, kind);
    };
    for (const [kind, crd] of crds) for (const v of crd.versions) walk(v.schema.openAPIV3Schema, kind);
    assert.deepEqual([...withDefaults].sort(), ['ContainerRecreateRequest', 'NodePodProbe', 'PodProbeMarker', 'SidecarSet']);
  });
});
