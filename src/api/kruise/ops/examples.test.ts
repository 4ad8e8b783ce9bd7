import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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

const specDir = '/work/shared/spec';
const specFiles = ['jobs-sidecars-ops.md', 'multidomain-protection-architecture.md'];
/** Kinds another module declares (workloads). */
const notOurs = new Set(['CloneSet', 'StatefulSet', 'DaemonSet', 'UnitedDeployment', 'WorkloadSpread']);

function specBlocks(): unknown[] {
  const out: unknown[] = [];
  for (const file of specFiles) {
    const text = readFileSync(`${specDir}/${file}`, 'utf8');
    for (const m of text.matchAll(/```ya?ml\n([\s\S]*?)```/g)) {
      for (const d of parseAllDocuments(m[1])) {
        const doc = d.toJS() as { apiVersion?: string; kind?: string } | null;
        if (!doc?.apiVersion || !/^(apps|policy)\.kruise\.io\//.test(doc.apiVersion)) continue;
        if (!notOurs.has(doc.kind ?? '')) out.push(doc);
      }
    }
  }
  return out;
}

describe('manifest examples of the specs', () => {
  for (const ex of specExamples) {
    test(`${ex.name} validates with no unknown fields`, () => {
      const r = checkYaml(ex.yaml);
      assert.deepEqual(r.unknown, []);
      assert.deepEqual(r.errors, []);
    });
  }

  test('the fixtures hold every such example of the spec files', { skip: !specFiles.every((f) => existsSync(`${specDir}/${f}`)) }, () => {
    const fixtures = specExamples.map((e) => parse(e.yaml) as unknown);
    const blocks = specBlocks();
    assert.equal(blocks.length, fixtures.length);
    for (const b of blocks) assert.ok(fixtures.some((f) => JSON.stringify(f) === JSON.stringify(b)), `missing example ${JSON.stringify(b)}`);
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
