/** The Kruise test environment end to end: CRD conversion and admission go through the manager's webhooks. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import { field } from '../machinery/errors.js';
import { startKruiseTestEnv, type KruiseTestEnv } from './kruise-env.js';

const cloneSets = (version: string): ResourceType => ({ group: 'apps.kruise.io', version, resource: 'clonesets', kind: 'CloneSet', namespaced: true });

const cloneSet = (name: string, replicas: number): KObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: 'default' },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
  },
});

describe('kruise test env', () => {
  let env: KruiseTestEnv;
  const calls: string[] = [];
  before(async () => {
    env = await startKruiseTestEnv({
      kinds: {
        CloneSet: {
          default(input) {
            calls.push(`default ${input.version} ${input.object!.apiVersion}`);
            input.object!.metadata.labels = { ...input.object!.metadata.labels, defaulted: 'yes' };
            return input.object!;
          },
          validate(input) {
            calls.push(`validate ${input.version}`);
            const replicas = (input.object?.spec as { replicas?: number } | undefined)?.replicas ?? 0;
            return replicas > 10 ? [field.invalid('spec.replicas', replicas, 'at most 10 in this test')] : [];
          },
        },
      },
    });
  });
  after(async () => { await env.stop(); });

  test('a v1alpha1 CloneSet is admitted by the webhooks and reads back as v1beta1', async () => {
    await env.client.create(cloneSets('v1alpha1'), cloneSet('web', 2));
    const beta = await env.client.get(cloneSets('v1beta1'), 'default', 'web');
    assert.equal(beta.apiVersion, 'apps.kruise.io/v1beta1');
    assert.equal(beta.metadata.labels?.defaulted, 'yes', 'the mutating webhook patched the object');
    assert.equal((beta.spec as { replicas: number }).replicas, 2);
    const alpha = await env.client.get(cloneSets('v1alpha1'), 'default', 'web');
    assert.equal(alpha.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.ok(calls.includes('default v1alpha1 apps.kruise.io/v1beta1'), calls.join('; '));
    assert.ok(calls.includes('validate v1alpha1'));
    const metrics = await env.webhooks.metrics.metrics();
    assert.match(metrics, /controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} [1-9]/, 'conversion went through /convert');
  });

  test('a field error of the validating webhook reaches the client with its message', async () => {
    await assert.rejects(env.client.create(cloneSets('v1beta1'), { ...cloneSet('big', 11), apiVersion: 'apps.kruise.io/v1beta1' }),
      /admission webhook "vcloneset\.kb\.io" denied the request: spec\.replicas: Invalid value: 11: at most 10 in this test/);
  });

  test('kubectl lists the CloneSet in both versions', async () => {
    const r = await env.kubectl(['get', 'clonesets.v1alpha1.apps.kruise.io', 'web', '-o', 'jsonpath={.apiVersion}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'apps.kruise.io/v1alpha1');
  });
});
