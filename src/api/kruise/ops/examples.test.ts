import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseAllDocuments } from 'yaml';
import { crdOf } from '../define-kind.js';
import type { FieldError } from '../../../machinery/errors.js';
import { applyDefaults, pruneUnknownFields, validateAgainstSchema, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import {
  defaultAdvancedCronJob, defaultBroadcastJob, defaultContainerRecreateRequest, defaultImageListPullJob,
  defaultImagePullJob, defaultNodeImage, defaultSidecarSet, opsKinds,
} from './index.js';
import { scenarioExamples } from './scenario-examples.fixture.js';
import { invalidExamples } from './invalid-examples.fixture.js';
import { specExamples } from './spec-examples.fixture.js';

interface SchemaCheck {
  /** The object after pruning and defaulting. */
  object: Record<string, unknown>;
  unknown: string[];
  errors: FieldError[];
}

interface CrdVersion { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }

/** The openAPIV3Schema served for `apiVersion` + `kind`; throws for kinds or versions we do not serve. */
function schemaFor(apiVersion: string, kind: string): JSONSchemaProps {
  const [group, version] = apiVersion.split('/');
  const def = opsKinds.find((k) => k.kind === kind && k.group === group);
  if (!def) throw new Error(`no ops kind ${kind}.${group}`);
  const versions = (crdOf(def).spec as { versions: CrdVersion[] }).versions;
  const v = versions.find((x) => x.name === version);
  if (!v) throw new Error(`${kind}.${group} does not serve ${version}`);
  return v.schema.openAPIV3Schema;
}

/** Runs a manifest through its CRD schema as the apiserver does: prune, default, validate. */
function checkManifest(manifest: Record<string, unknown>): SchemaCheck {
  const schema = schemaFor(String(manifest.apiVersion), String(manifest.kind));
  const object = structuredClone(manifest);
  const unknown = pruneUnknownFields(schema, object);
  applyDefaults(schema, object);
  return { object, unknown, errors: validateAgainstSchema(schema, object) };
}

function checkYaml(yaml: string): SchemaCheck {
  return checkManifest(parse(yaml) as Record<string, unknown>);
}

/** Kinds another module declares (workloads). */
const notOurs = new Set(['CloneSet', 'StatefulSet', 'DaemonSet', 'UnitedDeployment', 'WorkloadSpread']);

/** The documented examples the fixture holds, as `apiVersion kind name`. */
const documentedExamples = [
  'apps.kruise.io/v1beta1 BroadcastJob bcj-ok',
  'apps.kruise.io/v1beta1 AdvancedCronJob acj-b',
  'apps.kruise.io/v1beta1 SidecarSet log-agent',
  'apps.kruise.io/v1beta1 ContainerRecreateRequest crr-1',
  'apps.kruise.io/v1beta1 ImagePullJob pull-nginx',
  'apps.kruise.io/v1alpha1 PodProbeMarker idle',
  'apps.kruise.io/v1alpha1 ResourceDistribution shared-cm',
  'policy.kruise.io/v1alpha1 PodUnavailableBudget app-pub',
  'apps.kruise.io/v1alpha1 PersistentPodState db',
];

describe('manifest examples of the specs', () => {
  for (const ex of specExamples) {
    test(`${ex.name} validates with no unknown fields`, () => {
      const r = checkYaml(ex.yaml);
      assert.deepEqual(r.unknown, []);
      assert.deepEqual(r.errors, []);
    });
  }

  test('the fixture holds each documented example of the ops and policy kinds once, named by kind and name', () => {
    type Doc = { apiVersion?: string; kind?: string; metadata?: { name?: string } };
    const docs = specExamples.map((e) => ({ name: e.name, docs: parseAllDocuments(e.yaml).map((d) => d.toJS() as Doc) }));
    for (const { name, docs: [doc, ...more] } of docs) {
      assert.equal(more.length, 0, `${name}: one document`);
      assert.equal(name, `${doc.kind} ${doc.metadata?.name}`);
      assert.match(doc.apiVersion ?? '', /^(apps|policy)\.kruise\.io\//);
      assert.ok(!notOurs.has(doc.kind ?? ''), `${name}: workload examples live in workloads/spec-manifests.fixture.ts`);
    }
    assert.deepEqual(docs.map(({ docs: [doc] }) => `${doc.apiVersion} ${doc.kind} ${doc.metadata?.name}`), documentedExamples);
  });

  test('template metadata of an AdvancedCronJob survives pruning', () => {
    const r = checkYaml(specExamples[1].yaml);
    const spec = r.object.spec as { template: { broadcastJobTemplate: { metadata: unknown } } };
    assert.deepEqual(spec.template.broadcastJobTemplate.metadata, { labels: { from: 'acj' } });
  });

  test('schemaless pod templates, containers and volumes are kept as given', () => {
    const r = checkYaml(specExamples[2].yaml);
    const spec = r.object.spec as { containers: Record<string, unknown>[]; volumes: unknown[] };
    assert.deepEqual(spec.containers[0].volumeMounts, [{ name: 'logs', mountPath: '/var/log/app' }]);
    assert.deepEqual(spec.volumes, [{ name: 'logs', emptyDir: {} }]);
  });
});

describe('manifests from the scenario text', () => {
  for (const ex of scenarioExamples) {
    test(`${ex.name} validates with no unknown fields`, () => {
      const r = checkYaml(ex.yaml);
      assert.deepEqual(r.unknown, []);
      assert.deepEqual(r.errors, []);
    });
  }
});

describe('manifests the schemas refuse', () => {
  for (const c of invalidExamples) {
    test(c.name, () => {
      const r = checkYaml(c.yaml);
      assert.deepEqual(r.unknown.sort(), (c.unknown ?? []).sort());
      assert.deepEqual(r.errors.map((e) => [e.type, e.field]).sort(), (c.errors ?? []).sort());
    });
  }
});

/** The defaulting webhooks per kind (typed per kind; fixtures are plain JSON, hence `never`). */
const defaulters: Record<string, (o: never) => unknown> = {
  BroadcastJob: defaultBroadcastJob,
  AdvancedCronJob: defaultAdvancedCronJob,
  SidecarSet: defaultSidecarSet,
  ContainerRecreateRequest: defaultContainerRecreateRequest,
  ImagePullJob: defaultImagePullJob,
  ImageListPullJob: defaultImageListPullJob,
  NodeImage: (o: never) => defaultNodeImage(o, '2024-01-01T00:00:00Z'),
};

describe('defaulted examples', () => {
  for (const ex of [...specExamples, ...scenarioExamples]) {
    const manifest = parse(ex.yaml) as Record<string, unknown>;
    const defaulter = defaulters[String(manifest.kind)];
    if (!defaulter || manifest.apiVersion !== 'apps.kruise.io/v1beta1') continue;
    test(`${ex.name} stays valid and is a fixed point`, () => {
      const once = defaulter(manifest as never) as Record<string, unknown>;
      assert.deepEqual(defaulter(once as never), once);
      const r = checkManifest(once);
      assert.deepEqual(r.unknown, []);
      assert.deepEqual(r.errors, []);
    });
  }
});
