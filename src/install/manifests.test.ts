import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { installManifests } from './manifests.js';
import { keepManagerState } from './install.js';

const manifests = installManifests();
const find = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name)!;
type Hook = { name: string; clientConfig: Record<string, unknown>; timeoutSeconds: number; sideEffects: string; admissionReviewVersions: string[] };

describe('install manifests', () => {
  test('the manager role names its verbs, only reads nodes, namespaces and services, and never writes node status', () => {
    const rules = (find('ClusterRole', 'kruise-manager-role') as KObject & { rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] }).rules;
    for (const r of rules) assert.ok(!r.verbs.includes('*'), `wildcard verb on ${r.resources.join(',')}`);
    const verbsOf = (group: string, resource: string) => rules.filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource)).flatMap((r) => r.verbs);
    for (const resource of ['nodes', 'namespaces', 'services', 'endpoints']) assert.deepEqual(verbsOf('', resource), ['get', 'list', 'watch'], resource);
    assert.deepEqual(verbsOf('', 'nodes/status'), []);
    assert.deepEqual(rules.filter((r) => r.resources.includes('*') && r.apiGroups.includes('*')).flatMap((r) => r.verbs), ['list']);
  });

  test('the kruise-system namespace carries control-plane: openkruise', () => {
    assert.deepEqual(find('Namespace', 'kruise-system').metadata.labels, { 'control-plane': 'openkruise' });
  });

  test('webhook Service 443 → 9876 on the manager pods, and an empty certificate Secret', () => {
    const svc = find('Service', 'kruise-webhook-service');
    assert.equal(svc.metadata.namespace, 'kruise-system');
    assert.deepEqual(svc.spec, { ports: [{ port: 443, targetPort: 9876, protocol: 'TCP' }], selector: { 'control-plane': 'controller-manager' } });
    const secret = find('Secret', 'kruise-webhook-certs');
    assert.equal(secret.data, undefined);
  });

  test('both webhook configurations from the inventory, Service form, template annotation empty', () => {
    const mutating = find('MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration');
    const validating = find('ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration');
    assert.deepEqual(mutating.metadata.annotations, { template: '' });
    assert.equal((mutating.webhooks as Hook[]).length, 12);
    assert.equal((validating.webhooks as Hook[]).length, 25);
    const cs = (validating.webhooks as Hook[]).find((h) => h.name === 'vcloneset.kb.io')!;
    assert.deepEqual(cs.clientConfig, { service: { namespace: 'kruise-system', name: 'kruise-webhook-service', path: '/validate-apps-kruise-io-cloneset', port: 443 } });
    assert.deepEqual([cs.timeoutSeconds, cs.sideEffects, cs.admissionReviewVersions], [30, 'None', ['v1', 'v1beta1']]);
  });

  test('multi-version CRDs convert through /convert; the certs role may update exactly those', () => {
    const crds = manifests.filter((m) => m.kind === 'CustomResourceDefinition');
    const converted = crds.filter((c) => (c.spec as { conversion?: unknown }).conversion);
    assert.equal(converted.length, 15);
    assert.deepEqual((find('CustomResourceDefinition', 'clonesets.apps.kruise.io').spec as { conversion: unknown }).conversion, {
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { namespace: 'kruise-system', name: 'kruise-webhook-service', path: '/convert', port: 443 } }, conversionReviewVersions: ['v1', 'v1beta1'] },
    });
    const rules = find('ClusterRole', 'kruise-certs-role').rules as { resources: string[]; resourceNames: string[] }[];
    assert.deepEqual(rules[1].resourceNames.sort(), converted.map((c) => c.metadata.name).sort());
    assert.ok(find('Role', 'kruise-webhook-role'));
  });
});

describe('re-install keeps what the manager owns', () => {
  const config = find('ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration');

  test('before the manager ran, the configuration is applied as rendered', () => {
    const live: KObject = { ...config, metadata: { name: config.metadata.name, annotations: { template: '' } }, webhooks: [] };
    assert.deepEqual(keepManagerState(config, live), config);
  });

  test('after it saved a template, its webhooks stay and it gets the new template', () => {
    const managed = [{ name: 'vcloneset.kb.io', clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: 'Q0E=' } }];
    const live: KObject = { ...config, metadata: { name: config.metadata.name, annotations: { template: '[{"name":"old"}]' } }, webhooks: managed };
    const obj = keepManagerState(config, live);
    assert.deepEqual(obj.webhooks, managed);
    assert.deepEqual(JSON.parse(obj.metadata.annotations!.template), config.webhooks);
    const same = keepManagerState(config, { ...live, metadata: { ...live.metadata, annotations: { template: JSON.stringify(config.webhooks) } } });
    assert.equal(same.metadata.annotations!.template, JSON.stringify(config.webhooks));
  });

  test('a CRD whose conversion has a caBundle keeps its conversion section', () => {
    const crd = find('CustomResourceDefinition', 'clonesets.apps.kruise.io');
    const conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:9/convert', caBundle: 'Q0E=' }, conversionReviewVersions: ['v1', 'v1beta1'] } };
    const kept = keepManagerState(crd, { ...crd, spec: { ...(crd.spec as object), conversion } });
    assert.deepEqual((kept.spec as { conversion: unknown }).conversion, conversion);
    const fresh = keepManagerState(crd, crd);
    assert.deepEqual(fresh, crd);
  });
});
