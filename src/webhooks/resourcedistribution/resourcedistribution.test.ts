import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, Namespaces } from '../../api/resource-type.js';
import type { ResourceDistribution } from '../../api/kruise/ops/resourcedistribution.js';
import { invalidExamples } from '../../api/kruise/ops/invalid-examples.fixture.js';
import { moreScenarioExamples } from '../../api/kruise/ops/scenario-examples-2.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { errors, fieldErrorMessage, type FieldError } from '../../machinery/errors.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { admissionInput, assertHasError, enabled, fakeClient, type FakeClientOptions } from '../testkit.js';
import { AdmissionDenied } from '../kind-webhook.js';
import { createResourceDistributionWebhooks, resourceDistributionWebhooks } from './index.js';

const gates = enabled('ResourceDistributionGate');
const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { k: 'v1' } };

function rd(spec: Record<string, unknown>, name = 'shared-cm'): ResourceDistribution {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', metadata: { name }, spec: spec as ResourceDistribution['spec'] };
}
/** The ResourceDistribution example manifest (docs/design/kruise-api.md §10) as v1beta1 serves it. */
const sharedCm = rd({
  resource: configMap,
  targets: { includedNamespaces: { list: [{ name: 'rd-3' }] }, namespaceSelector: { matchLabels: { team: 'x' } }, excludedNamespaces: { list: [{ name: 'rd-2' }] } },
});

function validate(obj: ResourceDistribution, opts: { old?: ResourceDistribution; client?: FakeClientOptions } = {}): Promise<FieldError[]> | FieldError[] {
  const input = admissionInput({ object: obj, gates, oldObject: opts.old, client: fakeClient(opts.client) });
  return resourceDistributionWebhooks.validate!(input);
}

describe('ResourceDistribution validation', () => {
  const cases: { name: string; obj: ResourceDistribution; old?: ResourceDistribution; client?: FakeClientOptions; field: string; fragment: string }[] = [
    { name: 'kind Pod (C.5 #9)', obj: rd({ resource: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, targets: {} }),
      field: 'spec.resource', fragment: 'Invalid value: "Pod": unknown or unsupported resource GroupKind, only support [Secret ConfigMap]' },
    { name: 'a ConfigMap of another group', obj: rd({ resource: { apiVersion: 'example.io/v1', kind: 'ConfigMap', metadata: { name: 'p' } }, targets: {} }),
      field: 'spec.resource', fragment: '"ConfigMap.example.io": unknown or unsupported resource GroupKind' },
    { name: 'update renaming the resource (C.5 #9)', obj: rd({ ...sharedCm.spec, resource: { ...configMap, metadata: { name: 'renamed' } } }), old: sharedCm,
      field: 'spec.resource', fragment: 'Invalid value: null: resource apiVersion, kind, and name are immutable' },
    { name: 'update switching ConfigMap to Secret', obj: rd({ ...sharedCm.spec, resource: { ...configMap, kind: 'Secret' } }), old: sharedCm,
      field: 'spec.resource', fragment: 'resource apiVersion, kind, and name are immutable' },
    { name: 'rd-3 in both lists (C.5 #9)', obj: rd({ resource: configMap, targets: { includedNamespaces: { list: [{ name: 'rd-3' }, { name: 'rd-4' }] }, excludedNamespaces: { list: [{ name: 'rd-4' }, { name: 'rd-3' }] } } }),
      field: 'spec.targets', fragment: 'ambiguous targets because namespace [rd-4 rd-3] is in both IncludedNamespaces.List and ExcludedNamespaces.List' },
    { name: 'dry-run refusal (C.5 #9 invalid data key)', obj: rd({ resource: { ...configMap, data: { 'bad key!': 'v' } }, targets: {} }),
      client: { onCreate: () => { throw errors.invalid('ConfigMap', 'shared', '', [{ type: 'FieldValueInvalid', field: 'data[bad key!]', value: 'bad key!', detail: 'a valid config key must consist of alphanumeric characters' }]); } },
      field: 'spec.resource', fragment: 'spec.resource is invalid: ConfigMap "shared" is invalid: data[bad key!]' },
    { name: 'dry-run forbidden', obj: sharedCm, client: { onCreate: () => { throw errors.forbidden('configmaps is forbidden: no'); } },
      field: 'spec.resource', fragment: 'Forbidden: spec.resource is forbidden: configmaps is forbidden: no' },
    { name: 'dry-run failing otherwise', obj: sharedCm, client: { onCreate: () => { throw errors.internal('etcd down'); } },
      field: 'spec.resource', fragment: 'Internal error: failed to dry-run validate spec.resource: Internal error occurred: etcd down' },
    { name: 'no resource', obj: rd({ targets: {} }), field: 'spec.resource', fragment: 'empty resource is not allowed' },
    { name: 'resource without kind (invalid-examples fixture)',
      obj: parse(invalidExamples.find((e) => e.name.startsWith('ResourceDistribution v1beta1 with the v1alpha1 selector name'))!.yaml) as ResourceDistribution,
      field: 'spec.resource', fragment: `failed to deserialize resource, please check your spec.resource, err Object 'Kind' is missing in` },
    { name: 'invalid included namespace name', obj: rd({ resource: configMap, targets: { includedNamespaces: { list: [{ name: 'Bad_NS' }] } } }),
      field: 'spec.targets.includedNamespaces', fragment: 'Invalid value: "Bad_NS": a lowercase RFC 1123 label' },
    { name: 'invalid excluded namespace name', obj: rd({ resource: configMap, targets: { excludedNamespaces: { list: [{ name: 'a.b' }] } } }),
      field: 'spec.targets.excludedNamespaces', fragment: 'must not contain dots' },
    { name: 'unparseable namespace selector', obj: rd({ resource: configMap, targets: { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Has' }] } } }),
      field: 'spec.targets.namespaceSelector', fragment: 'labelSelectorAsSelector error: "Has" is not a valid label selector operator' },
    { name: 'invalid name', obj: rd({ resource: configMap, targets: {} }, 'Shared_CM'), field: 'metadata.name', fragment: 'a lowercase RFC 1123 subdomain' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const errs = await validate(c.obj, { old: c.old, client: c.client });
      assertHasError(errs, c.field, c.fragment);
    });
  }

  test('valid distributions pass; the dry-run create is made in the Kruise namespace, and AlreadyExists is fine', async () => {
    const examples = [...specExamples, ...moreScenarioExamples].filter((e) => e.yaml.includes('kind: ResourceDistribution')).map((e) => parse(e.yaml) as ResourceDistribution);
    assert.equal(examples.length, 2);
    const secret = examples.find((e) => e.metadata?.name === 'shared-secret')!;
    const update = rd({ ...sharedCm.spec, resource: { ...configMap, data: { k: 'v2' } } });
    const creates: KObject[] = [];
    const opts: FakeClientOptions = { onCreate: (_t, obj, o) => { assert.equal(o?.dryRun, true); creates.push(obj); } };
    for (const [obj, old] of [[sharedCm], [secret], [update, sharedCm]] as [ResourceDistribution, ResourceDistribution?][]) {
      assert.deepEqual((await validate(obj, { old, client: opts })).map(fieldErrorMessage), []);
    }
    assert.deepEqual(creates.map((c) => [c.kind, c.metadata.namespace, c.metadata.name]),
      [['ConfigMap', 'kruise-system', 'shared'], ['Secret', 'kruise-system', 'shared'], ['ConfigMap', 'kruise-system', 'shared']]);
    const exists = { onCreate: () => { throw errors.alreadyExists('configmaps', 'shared'); } };
    assert.deepEqual(await validate(sharedCm, { client: exists }), []);
  });

  test('gate off: 403 before any validation', async () => {
    await assert.rejects(async () => resourceDistributionWebhooks.validate!(admissionInput({ object: rd({}) })),
      (e: unknown) => e instanceof AdmissionDenied && e.code === 403 && e.message === 'feature-gate ResourceDistributionGate is not enabled');
  });

  test('field errors deny with 422; validating only', () => {
    assert.equal(resourceDistributionWebhooks.invalidCode, 422);
    assert.equal(resourceDistributionWebhooks.default, undefined);
  });
});

describe('ResourceDistribution dry-run against a real API server', () => {
  let env: TestControlPlane;
  let client: Client;
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-ops' } } as KObject);
  });
  after(async () => env.stop());

  test('a ConfigMap with an invalid data key is refused; a valid one is accepted and not stored', async () => {
    const webhooks = createResourceDistributionWebhooks({ kruiseNamespace: 'kruise-ops' });
    const bad = rd({ resource: { ...configMap, data: { 'bad key!': 'v' } }, targets: {} });
    const errs = await webhooks.validate!(admissionInput({ object: bad, gates, client }));
    assert.equal(errs.length, 1);
    assert.match(fieldErrorMessage(errs[0]), /^spec\.resource: Invalid value: null: spec\.resource is invalid: .*bad key!/);
    assert.deepEqual(await webhooks.validate!(admissionInput({ object: sharedCm, gates, client })), []);
    assert.equal((await client.list(ConfigMaps, { namespace: 'kruise-ops' })).items.length, 0);
  });
});
