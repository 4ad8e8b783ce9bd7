import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { CustomResourceDefinitions, MutatingWebhookConfigurations, ValidatingWebhookConfigurations } from '../../api/resource-type.js';
import { mutatingConfigurationName, validatingConfigurationName, mutatingWebhookInventory, validatingWebhookInventory } from '../../api/kruise/webhook-inventory.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/index.js';
import { installKruise } from '../../install/install.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { startKruiseWebhooks, type KruiseWebhooks, type KruiseWebhooksOptions } from '../index.js';

type Hook = { name: string; clientConfig: { url?: string; service?: { namespace: string; name: string; path: string; port: number }; caBundle?: string } };
type Config = KObject & { webhooks?: Hook[] };
type Crd = KObject & { spec: { conversion?: { strategy: string; webhook?: { clientConfig: Hook['clientConfig']; conversionReviewVersions: string[] } } } };

const cloneSetOnly = { CloneSet: { default: (i: { object?: KObject }) => i.object!, validate: () => [] } };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('webhook-configuration controller', () => {
  let env: TestControlPlane;
  let client: Client;
  let dir: string;
  let running: KruiseWebhooks | undefined;

  const start = async (options: Partial<KruiseWebhooksOptions> = {}) => {
    running = await startKruiseWebhooks({
      client, gates: () => true, namespace: 'kruise-system', host: '127.0.0.1', port: 0, certDir: path.join(dir, 'certs'),
      certWriter: 'fs', secretName: 'kruise-webhook-certs', serviceName: 'kruise-webhook-service', webhookHost: '127.0.0.1',
      kinds: cloneSetOnly, keyAlgorithm: 'ecdsa-p256', ...options,
    });
    return running;
  };
  const stop = async () => { await running?.stop(); running = undefined; };
  const configs = async () => ({
    mutating: await client.get<Config>(MutatingWebhookConfigurations, undefined, mutatingConfigurationName),
    validating: await client.get<Config>(ValidatingWebhookConfigurations, undefined, validatingConfigurationName),
  });

  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-webhook-config-'));
  });
  after(async () => {
    await stop();
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('waits for the configurations to exist, then becomes ready', async () => {
    const webhooks = await start();
    let ready = false;
    void webhooks.ready.then(() => { ready = true; });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(ready, false, 'no configurations yet: the sync fails and retries');
    await installKruise(client);
    await webhooks.ready;
    assert.match(webhooks.caPem, /BEGIN CERTIFICATE/);
  });

  test('saves the template, prunes unserved paths, sets caBundle and the URL of this server', async () => {
    const { mutating, validating } = await configs();
    const template = JSON.parse(mutating.metadata.annotations!.template) as Hook[];
    assert.deepEqual(template.map((h) => h.name), mutatingWebhookInventory.map((e) => e.name), 'the install-time list is the template');
    assert.equal((JSON.parse(validating.metadata.annotations!.template) as Hook[]).length, validatingWebhookInventory.length);
    assert.deepEqual(mutating.webhooks!.map((h) => h.name), ['mcloneset.kb.io']);
    assert.deepEqual(validating.webhooks!.map((h) => h.name), ['vcloneset.kb.io']);
    const port = running!.port;
    assert.deepEqual(mutating.webhooks![0].clientConfig, { url: `https://127.0.0.1:${port}/mutate-apps-kruise-io-cloneset`, caBundle: b64(running!.caPem) });
    assert.equal(validating.webhooks![0].clientConfig.url, `https://127.0.0.1:${port}/validate-apps-kruise-io-cloneset`);
  });

  test('points every multi-version Kruise CRD at /convert with the CA', async () => {
    const crds = (await client.list<Crd>(CustomResourceDefinitions)).items.filter((c) => c.metadata.name!.includes('kruise.io'));
    const converted = crds.filter((c) => c.spec.conversion?.strategy === 'Webhook');
    assert.equal(converted.length, 15);
    for (const crd of converted) {
      assert.deepEqual(crd.spec.conversion!.webhook, {
        clientConfig: { url: `https://127.0.0.1:${running!.port}/convert`, caBundle: b64(running!.caPem) },
        conversionReviewVersions: ['v1', 'v1beta1'],
      }, crd.metadata.name);
    }
    const single = crds.find((c) => c.metadata.name === 'podprobemarkers.apps.kruise.io')!;
    assert.notEqual(single.spec.conversion?.strategy, 'Webhook');
  });

  test('re-running install keeps the manager\'s webhooks and conversion config', async () => {
    const before = await configs();
    await installKruise(client);
    const afterInstall = await configs();
    assert.deepEqual(afterInstall.mutating.webhooks, before.mutating.webhooks);
    assert.deepEqual(afterInstall.validating.webhooks, before.validating.webhooks);
    assert.equal(afterInstall.mutating.metadata.annotations!.template, before.mutating.metadata.annotations!.template);
    const crd = await client.get<Crd>(CustomResourceDefinitions, undefined, 'clonesets.apps.kruise.io');
    assert.equal(crd.spec.conversion!.webhook!.clientConfig.url, `https://127.0.0.1:${running!.port}/convert`);
  });

  test('a resync without changes writes nothing', async () => {
    await stop();
    const webhooks = await start({ resyncMs: 100 });
    await webhooks.ready;
    const first = await configs();
    const crd = await client.get(CustomResourceDefinitions, undefined, 'clonesets.apps.kruise.io');
    await new Promise((r) => setTimeout(r, 400));
    const later = await configs();
    assert.equal(later.mutating.metadata.resourceVersion, first.mutating.metadata.resourceVersion);
    assert.equal(later.validating.metadata.resourceVersion, first.validating.metadata.resourceVersion);
    assert.equal((await client.get(CustomResourceDefinitions, undefined, 'clonesets.apps.kruise.io')).metadata.resourceVersion, crd.metadata.resourceVersion);
  });

  test('without a webhook host: Service form with the running namespace and service name, certificates in a Secret', async () => {
    await stop();
    const webhooks = await start({ webhookHost: undefined, certWriter: 'secret', serviceName: 'other-svc', certDir: path.join(dir, 'certs2'), kinds: { ...cloneSetOnly, BroadcastJob: { validate: () => [] } } });
    await webhooks.ready;
    const { validating } = await configs();
    assert.deepEqual(validating.webhooks!.map((h) => h.name), ['vcloneset.kb.io', 'vbroadcastjob.kb.io']);
    assert.deepEqual(validating.webhooks![1].clientConfig, {
      service: { namespace: 'kruise-system', name: 'other-svc', path: '/validate-apps-kruise-io-broadcastjob', port: 443 },
      caBundle: b64(webhooks.caPem),
    });
    const crd = await client.get<Crd>(CustomResourceDefinitions, undefined, 'broadcastjobs.apps.kruise.io');
    assert.deepEqual(crd.spec.conversion!.webhook!.clientConfig, {
      service: { namespace: 'kruise-system', name: 'other-svc', path: '/convert', port: 443 }, caBundle: b64(webhooks.caPem),
    });
    assert.ok(webhooks.paths.includes('/validate-apps-kruise-io-v1alpha1-broadcastjob'), 'legacy alias served too');
  });
});
