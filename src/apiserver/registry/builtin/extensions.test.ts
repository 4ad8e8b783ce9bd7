import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

const mutating = findBuiltin('admissionregistration.k8s.io', 'mutatingwebhookconfigurations');
const validating = findBuiltin('admissionregistration.k8s.io', 'validatingwebhookconfigurations');
const crds = findBuiltin('apiextensions.k8s.io', 'customresourcedefinitions');

const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'pods.kruise.example.io', sideEffects: 'None', admissionReviewVersions: ['v1'],
  clientConfig: { service: { name: 'webhook', namespace: 'kruise-system', path: '/mutate-pod' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...extra,
});
const config = (webhooks: unknown[]): KObject => ({ metadata: { name: 'kruise' }, webhooks });

describe('webhook configurations', () => {
  test('defaults', () => {
    const { object, errors } = simulateCreate(mutating, config([hook()]));
    assert.deepEqual(errors, []);
    const h = (object.webhooks as Record<string, unknown>[])[0];
    assert.equal(h.failurePolicy, 'Fail');
    assert.equal(h.matchPolicy, 'Equivalent');
    assert.deepEqual(h.namespaceSelector, {});
    assert.deepEqual(h.objectSelector, {});
    assert.equal(h.timeoutSeconds, 10);
    assert.equal(h.reinvocationPolicy, 'Never');
    assert.deepEqual(h.clientConfig, { service: { name: 'webhook', namespace: 'kruise-system', path: '/mutate-pod', port: 443 } });
    assert.equal((h.rules as { scope: string }[])[0].scope, '*');
    assert.equal((simulateCreate(validating, config([hook()])).object.webhooks as Record<string, unknown>[])[0].reinvocationPolicy, undefined);
  });

  const cases: [string, unknown[], string[]][] = [
    ['two-segment name', [hook({ name: 'kruise.io' })], ['webhooks[0].name: Invalid value: "kruise.io": should be a domain with at least three segments separated by dots']],
    ['duplicate names', [hook(), hook()], ['webhooks[1].name: Duplicate value: "pods.kruise.example.io"']],
    ['sideEffects required', [hook({ sideEffects: undefined })], ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
    ['sideEffects v1 values', [hook({ sideEffects: 'Some' })], ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']],
    ['review versions required', [hook({ admissionReviewVersions: [] })], ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
    ['review versions known', [hook({ admissionReviewVersions: ['v2'] })], ['webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1']],
    ['failurePolicy enum', [hook({ failurePolicy: 'Retry' })], ['webhooks[0].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']],
    ['client config: neither', [hook({ clientConfig: {} })], ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
    ['client config: both', [hook({ clientConfig: { url: 'https://a.example.com/x', service: { name: 'a', namespace: 'b' } } })],
      ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
    ['url must be https', [hook({ clientConfig: { url: 'http://a.example.com/x' } })], ['webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme']],
    ['timeout range', [hook({ timeoutSeconds: 31 })], ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']],
  ];
  for (const [name, hooks, expected] of cases) {
    test(name, () => assert.deepEqual(simulateCreate(mutating, config(hooks)).errors, expected));
  }

  test('webhook configurations track generation', () => {
    assert.equal(mutating.tracksGeneration, true);
    assert.equal(validating.tracksGeneration, true);
  });
});

describe('customresourcedefinitions', () => {
  const crd = (spec: Record<string, unknown> = {}, name = 'clonesets.apps.kruise.io'): KObject => ({
    metadata: { name },
    spec: {
      group: 'apps.kruise.io', scope: 'Namespaced', names: { plural: 'clonesets', kind: 'CloneSet' },
      versions: [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      ...spec,
    },
  });

  test('defaults and stored versions', () => {
    const { object, errors } = simulateCreate(crds, crd());
    assert.deepEqual(errors, []);
    const spec = object.spec as { names: unknown; conversion: unknown };
    assert.deepEqual(spec.names, { plural: 'clonesets', kind: 'CloneSet', singular: 'cloneset', listKind: 'CloneSetList' });
    assert.deepEqual(spec.conversion, { strategy: 'None' });
    assert.deepEqual(object.status, { acceptedNames: { kind: '', plural: '' }, storedVersions: ['v1alpha1'] });
  });

  test('a new storage version joins storedVersions on update', () => {
    const old = simulateCreate(crds, crd()).object;
    const next = crd({ versions: [
      { name: 'v1alpha1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
    ] });
    const { object, errors } = simulateUpdate(crds, old, next);
    assert.deepEqual(errors, []);
    assert.deepEqual((object.status as { storedVersions: string[] }).storedVersions, ['v1alpha1', 'v1beta1']);
  });

  const twoStorage = [
    { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
    { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
  ];
  const cases: [string, KObject, string[]][] = [
    ['name must be plural.group', crd({}, 'clonesets'), ['metadata.name: Invalid value: "clonesets": must be spec.names.plural+"."+spec.group']],
    ['group required', crd({ group: '' }, 'clonesets.'), ['spec.group: Required value']],
    ['group needs a dot', crd({ group: 'kruise' }, 'clonesets.kruise'), ['spec.group: Invalid value: "kruise": should be a domain with at least one dot']],
    ['scope enum', crd({ scope: 'Global' }), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']],
    ['names required', crd({ names: {} }), [
      'metadata.name: Invalid value: "clonesets.apps.kruise.io": must be spec.names.plural+"."+spec.group',
      'spec.names.plural: Required value', 'spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value']],
    ['exactly one storage version', crd({ versions: twoStorage }),
      [`spec.versions: Invalid value: ${JSON.stringify(twoStorage)}: must have exactly one version marked as storage version`]],
    ['no versions', crd({ versions: [] }), ['spec.versions: Invalid value: []: must have exactly one version marked as storage version']],
  ];
  for (const [name, obj, expected] of cases) {
    test(name, () => assert.deepEqual(simulateCreate(crds, obj).errors, expected));
  }

  test('scope is immutable once established', () => {
    const old = simulateCreate(crds, crd()).object;
    (old.status as Record<string, unknown>).conditions = [{ type: 'Established', status: 'True' }];
    assert.deepEqual(simulateUpdate(crds, old, crd({ scope: 'Cluster' })).errors, ['spec.scope: Invalid value: "Cluster": field is immutable']);
  });
});
