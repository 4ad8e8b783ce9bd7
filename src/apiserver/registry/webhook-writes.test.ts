/**
 * The registry's writes as mutating webhooks see and change them, against the embedded API server
 * and an HTTPS webhook on loopback: DELETE (and each item of a collection delete), pods/eviction
 * and pods/binding, what a webhook may not change on /status and main-resource writes, and what a
 * CREATE looks like before the store fills in system metadata.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../../api/meta.js';
import type { AdmissionReview } from '../../api/admission.js';
import { ConfigMaps, Deployments, MutatingWebhookConfigurations, Namespaces, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import { setRootLogger } from '../../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { admissionAnswer, startTestWebhookServer, webhookConfiguration, type HookSpec, type TestWebhookServer } from '../admission/testkit.js';
import { systemContext } from './context.js';

setRootLogger(pino({ level: 'silent' }));

let env: TestControlPlane;
let client: Client;
let server: TestWebhookServer;

type Review = AdmissionReview & Record<string, unknown>;
type Rule = HookSpec['rules'][number];

const rule = (resources: string[], operations: string[], group = ''): Rule => ({ operations, apiGroups: [group], apiVersions: ['v1'], resources });

/** A namespace of its own and a mutating webhook limited to it, answering with `handler`. */
async function hooked(t: TestContext, ns: string, rules: Rule[], handler: (review: Review) => unknown): Promise<void> {
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { suite: ns } } });
  server.handle(`/${ns}`, handler);
  await client.create(MutatingWebhookConfigurations, webhookConfiguration('MutatingWebhookConfiguration', ns, [{
    name: `${ns}.example.com`, clientConfig: { url: `${server.url}/${ns}`, caBundle: server.caBundle }, rules,
    namespaceSelector: { matchLabels: { suite: ns } },
  }]));
  t.after(() => client.delete(MutatingWebhookConfigurations, undefined, ns));
}

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
  return e;
}

const configMap = (ns: string, name: string, labels: Record<string, string> = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels }, data: { a: '1' } });
const pod = (ns: string, name: string, nodeName?: string): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] } });
const deployment = (ns: string, meta: KObject['metadata']): KObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: ns, labels: { app: 'web' }, ...meta },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});
const summary = (r: Review) => `${r.request!.operation} ${r.request!.kind.kind}${r.request!.subResource ? `/${r.request!.subResource}` : ''} ${r.request!.name ?? '-'}`;

describe('registry writes under mutating webhooks', () => {
  before(async () => {
    [env, server] = await Promise.all([startTestControlPlane({ inMemory: true }), startTestWebhookServer()]);
    client = createInProcessClient(env.plane.handler);
  });
  after(async () => {
    await env.stop();
    await server.close();
  });

  test('a mutating webhook registered for DELETE sees the old object and can deny it; a collection delete admits each item unnamed', async (t) => {
    await hooked(t, 'del', [rule(['configmaps'], ['DELETE'])], (review) => {
      const old = review.request!.oldObject as KObject;
      if (old.metadata.labels?.keep === 'yes') return admissionAnswer(review, { allowed: false, status: { code: 403, message: 'this one stays' } });
      return admissionAnswer(review);
    });
    await client.create(ConfigMaps, configMap('del', 'kept', { keep: 'yes' }));
    await client.create(ConfigMaps, configMap('del', 'gone'));
    const denied = await rejection(client.delete(ConfigMaps, 'del', 'kept'));
    assert.equal(denied.code, 403);
    assert.equal(denied.message, 'admission webhook "del.example.com" denied the request: this one stays');
    assert.equal((await client.get(ConfigMaps, 'del', 'kept')).metadata.name, 'kept');
    await client.delete(ConfigMaps, 'del', 'gone');
    await assert.rejects(client.get(ConfigMaps, 'del', 'gone'), (e: StatusError) => e.code === 404);
    const reviews = server.reviews('/del');
    assert.deepEqual(reviews.map(summary), ['DELETE ConfigMap kept', 'DELETE ConfigMap gone']);
    assert.equal(reviews[0].request!.object, null);
    assert.deepEqual((reviews[0].request!.oldObject as KObject).data, { a: '1' });

    await client.create(ConfigMaps, configMap('del', 'batch', { group: 'g' }));
    const configMaps = env.plane.registry.table.lookup('', 'v1', 'configmaps')!;
    await env.plane.registry.deleteCollection(configMaps, 'del', { labelSelector: 'group=g' }, {}, systemContext());
    const item = server.reviews('/del')[2];
    assert.equal(summary(item), 'DELETE ConfigMap -', 'kube admits collection items under the request\'s empty name');
    assert.equal((item.request!.oldObject as KObject).metadata.name, 'batch');
  });

  test('pods/eviction: a mutating webhook may patch the Eviction or deny it; the pod\'s DELETE is not admitted again', async (t) => {
    await hooked(t, 'evict', [rule(['pods/eviction'], ['CREATE']), rule(['pods'], ['DELETE'])], (review) => {
      const name = review.request!.name;
      if (review.request!.operation === 'DELETE') return admissionAnswer(review);
      if (name === 'deny') return admissionAnswer(review, { allowed: false, status: { code: 403, message: 'no evictions here' } });
      if (name === 'rename') return admissionAnswer(review, { patch: [{ op: 'replace', path: '/metadata/name', value: 'other' }] });
      return admissionAnswer(review, { patch: [{ op: 'add', path: '/deleteOptions', value: { gracePeriodSeconds: 77 } }] });
    });
    for (const name of ['slow', 'deny', 'rename']) await client.create(Pods, pod('evict', name, 'node-a'));
    const evict = (name: string) => client.createSubresource(Pods, 'evict', name, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'evict' } });

    await evict('slow');
    const evicted = await client.get(Pods, 'evict', 'slow');
    assert.equal(evicted.metadata.deletionGracePeriodSeconds, 77, 'the webhook\'s deleteOptions are the ones used');
    assert.ok(evicted.metadata.deletionTimestamp);
    const denied = await rejection(evict('deny'));
    assert.equal(denied.code, 403);
    assert.equal(denied.message, 'admission webhook "evict.example.com" denied the request: no evictions here');
    assert.equal((await client.get(Pods, 'evict', 'deny')).metadata.deletionTimestamp, undefined);
    const renamed = await rejection(evict('rename'));
    assert.equal(renamed.code, 400);
    assert.equal(renamed.message, 'name in URL does not match name in Eviction object');

    const reviews = server.reviews('/evict');
    assert.deepEqual(reviews.map(summary), ['CREATE Eviction/eviction slow', 'CREATE Eviction/eviction deny', 'CREATE Eviction/eviction rename']);
    assert.equal(reviews[0].request!.oldObject, null, 'a subresource CREATE has no old object');
  });

  test('pods/binding: a mutating webhook may annotate the Binding, and the annotations reach the pod', async (t) => {
    await hooked(t, 'bind', [rule(['pods/binding'], ['CREATE'])], (review) =>
      admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/annotations', value: { 'example.com/bound-by': 'webhook' } }] }));
    const created = await client.create(Pods, pod('bind', 'p'));
    await client.createSubresource(Pods, 'bind', 'p', 'binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', uid: created.metadata.uid }, target: { kind: 'Node', name: 'node-a' } });
    const bound = await client.get<KObject & { spec: { nodeName?: string } }>(Pods, 'bind', 'p');
    assert.equal(bound.spec.nodeName, 'node-a');
    assert.equal(bound.metadata.annotations?.['example.com/bound-by'], 'webhook');
    assert.deepEqual(server.reviews('/bind').map(summary), ['CREATE Binding/binding p']);

    await client.create(Pods, pod('bind', 'q'));
    const stale = await rejection(client.createSubresource(Pods, 'bind', 'q', 'binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'q', uid: 'not-the-pod' }, target: { kind: 'Node', name: 'node-a' } }));
    assert.equal(stale.code, 409);
    assert.match(stale.message, /^Operation cannot be fulfilled on pods "q": StorageError: invalid object, Code: 4, Key: \/registry\/pods\/bind\/q, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-pod, UID in object meta: [0-9a-f-]{36}$/);
  });

  test('status writes keep only what the status strategy allows, whatever a webhook patched; main writes never change status', async (t) => {
    await hooked(t, 'status', [rule(['deployments', 'deployments/status'], ['CREATE', 'UPDATE'], 'apps')], (review) => {
      const req = review.request!;
      if (req.subResource === 'status') {
        return admissionAnswer(review, { patch: [
          { op: 'replace', path: '/spec/replicas', value: 9 },
          { op: 'add', path: '/metadata/labels/from-hook', value: 'yes' },
          { op: 'add', path: '/metadata/annotations', value: { 'from-hook': 'yes' } },
        ] });
      }
      return admissionAnswer(review, { patch: [{ op: 'add', path: '/status', value: { replicas: 42 } }] });
    });
    const created = await client.create(Deployments, deployment('status', { name: 'web' })) as KObject & { status?: { replicas?: number } };
    assert.notEqual(created.status?.replicas, 42, 'status from a webhook on CREATE is reset by the strategy');

    const written = await client.patch<KObject & { spec: { replicas: number }; status?: { observedGeneration?: number } }>(Deployments, 'status', 'web', 'merge', { status: { observedGeneration: 1 } }, { subresource: 'status' });
    assert.equal(written.spec.replicas, 1, 'spec patched by the webhook on /status is reset');
    assert.deepEqual(written.metadata.labels, { app: 'web' }, 'the Deployment status strategy resets labels');
    assert.equal(written.metadata.annotations?.['from-hook'], 'yes', 'and keeps annotations');
    assert.equal(written.status?.observedGeneration, 1);
    assert.equal(written.metadata.generation, 1);

    const main = await client.patch<KObject & { status?: { replicas?: number; observedGeneration?: number } }>(Deployments, 'status', 'web', 'merge', { metadata: { labels: { tier: 'front' } } });
    assert.equal(main.status?.replicas, undefined, 'status patched by the webhook on the main resource is dropped');
    assert.equal(main.status?.observedGeneration, 1);
    assert.equal(main.metadata.labels?.tier, 'front');
    assert.equal(main.metadata.generation, 1, 'no spec change, no new generation');
  });

  test('a CREATE reaches webhooks before the store names the object and fills uid and creationTimestamp', async (t) => {
    await hooked(t, 'create', [rule(['configmaps'], ['CREATE'])], (review) => admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/uid', value: 'chosen-by-hook' }] }));
    const created: KObject = await client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-', namespace: 'create' } });
    assert.match(created.metadata.name!, /^gen-[a-z0-9]{5}$/);
    assert.match(created.metadata.uid!, /^[0-9a-f-]{36}$/, 'the store sets the uid after admission');
    const [review] = server.reviews('/create');
    const seen = review.request!.object as KObject;
    assert.equal(review.request!.name, undefined);
    assert.deepEqual([seen.metadata.name, seen.metadata.uid, seen.metadata.creationTimestamp], [undefined, undefined, undefined]);
    assert.equal(seen.metadata.generateName, 'gen-');
  });
});
