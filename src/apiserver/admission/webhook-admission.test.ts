/**
 * Admission webhooks against the embedded API server and a real HTTPS webhook server on loopback:
 * patches, denials, failure policy, timeouts, selectors, subresources, DELETE, dry run,
 * reinvocation and Service client configs resolved through Endpoints.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { pino } from 'pino';
import type { KObject } from '../../api/meta.js';
import type { AdmissionReview } from '../../api/admission.js';
import {
  ConfigMaps, Deployments, Endpoints, MutatingWebhookConfigurations, Namespaces, Pods, Services, ValidatingWebhookConfigurations, type ResourceType,
} from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createHttpClient } from '../../client/http-client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import { setRootLogger } from '../../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { generateCA } from '../auth/pki.js';
import { admissionAnswer, startTestWebhookServer, webhookConfiguration, type HookSpec, type TestWebhookServer } from './testkit.js';

setRootLogger(pino({ level: 'silent' }));

let env: TestControlPlane;
let client: Client;
let http: Client;
let server: TestWebhookServer;

const cm = (name: string, labels: Record<string, string>, namespace = 'default'): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { a: '1' } });
const pod = (name: string, labels: Record<string, string>): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

const rule = (resources: string[], operations = ['CREATE', 'UPDATE'], group = ''): HookSpec['rules'][number] =>
  ({ operations, apiGroups: [group], apiVersions: ['v1'], resources });

function hook(name: string, path: string, rules: HookSpec['rules'], extra: Record<string, unknown> = {}): HookSpec {
  return { name, clientConfig: { url: `${server.url}${path}`, caBundle: server.caBundle }, rules, ...extra };
}

/** Installs a webhook configuration for the rest of the test. */
async function install(t: TestContext, kind: 'mutating' | 'validating', name: string, hooks: HookSpec[]): Promise<void> {
  const type: ResourceType = kind === 'mutating' ? MutatingWebhookConfigurations : ValidatingWebhookConfigurations;
  await client.create(type, webhookConfiguration(kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration', name, hooks));
  t.after(() => client.delete(type, undefined, name));
}

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
  return e;
}

async function refusedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

const allowAll = (review: AdmissionReview) => admissionAnswer(review);

describe('webhook admission', () => {
  before(async () => {
    [env, server] = await Promise.all([startTestControlPlane({ inMemory: true }), startTestWebhookServer(['hooks.webhooks.svc'])]);
    client = createInProcessClient(env.plane.handler);
    http = createHttpClient({ kubeconfigPath: env.kubeconfig });
  });
  after(async () => {
    await env.stop();
    await server.close();
  });

  test('a mutating patch is applied, stored and seen by later readers; the review carries the request', async (t) => {
    server.handle('/label', (review) => admissionAnswer(review, {
      patch: [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }], warnings: ['labelled by webhook'],
    }));
    await install(t, 'mutating', 'label', [hook('label.example.com', '/label', [rule(['pods'])], { objectSelector: { matchLabels: { suite: 'mutate' } } })]);
    const created = await http.create(Pods, pod('mutated', { suite: 'mutate' }));
    assert.equal(created.metadata.labels?.mutated, 'yes');
    assert.equal((await http.get(Pods, 'default', 'mutated')).metadata.labels?.mutated, 'yes');
    const [review] = server.reviews('/label');
    const req = review.request!;
    assert.equal(review.apiVersion, 'admission.k8s.io/v1');
    assert.deepEqual(req.kind, { group: '', version: 'v1', kind: 'Pod' });
    assert.deepEqual(req.resource, { group: '', version: 'v1', resource: 'pods' });
    assert.deepEqual(req.requestKind, { group: '', version: 'v1', kind: 'Pod' });
    assert.equal(req.operation, 'CREATE');
    assert.equal(req.namespace, 'default');
    assert.equal(req.name, 'mutated');
    assert.equal(req.userInfo.username, 'admin');
    assert.equal(req.dryRun, false);
    assert.equal((req.options as { kind?: string }).kind, 'CreateOptions');
    assert.equal(req.oldObject, null);
    assert.deepEqual(server.queries.get('/label'), ['timeout=10s']);
  });

  test('a validating denial reaches the client with its code and kube\'s message', async (t) => {
    server.handle('/deny', (review) => {
      const labels = (review.request!.object as KObject).metadata.labels ?? {};
      if (labels.verdict === 'explained') return admissionAnswer(review, { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'configmaps named like this are not allowed' } });
      if (labels.verdict === 'silent') return admissionAnswer(review, { allowed: false, status: { code: 200 } });
      return admissionAnswer(review);
    });
    await install(t, 'validating', 'deny', [hook('deny.example.com', '/deny', [rule(['configmaps'])], { objectSelector: { matchLabels: { suite: 'deny' } } })]);
    const explained = await rejection(http.create(ConfigMaps, cm('denied', { suite: 'deny', verdict: 'explained' })));
    assert.equal(explained.code, 403);
    assert.equal(explained.reason, 'Forbidden');
    assert.equal(explained.message, 'admission webhook "deny.example.com" denied the request: configmaps named like this are not allowed');
    const silent = await rejection(http.create(ConfigMaps, cm('denied', { suite: 'deny', verdict: 'silent' })));
    assert.equal(silent.code, 400);
    assert.equal(silent.message, 'admission webhook "deny.example.com" denied the request without explanation');
    await http.create(ConfigMaps, cm('allowed', { suite: 'deny' }));
    await assert.rejects(http.get(ConfigMaps, 'default', 'denied'), (e: StatusError) => e.code === 404);
  });

  test('an unreachable webhook fails the request under Fail and is skipped under Ignore', async (t) => {
    const port = await refusedPort();
    const down = (name: string, policy: string, suite: string) => ({
      name, clientConfig: { url: `https://127.0.0.1:${port}/down`, caBundle: server.caBundle }, rules: [rule(['configmaps'])],
      failurePolicy: policy, objectSelector: { matchLabels: { suite } },
    });
    await install(t, 'validating', 'down', [down('fail.example.com', 'Fail', 'down-fail'), down('ignore.example.com', 'Ignore', 'down-ignore')]);
    const e = await rejection(client.create(ConfigMaps, cm('down-fail', { suite: 'down-fail' })));
    assert.equal(e.code, 500);
    assert.equal(e.reason, 'InternalError');
    assert.equal(e.message, `Internal error occurred: failed calling webhook "fail.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/down?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    const ok = await client.create(ConfigMaps, cm('down-ignore', { suite: 'down-ignore' }));
    assert.equal(ok.metadata.name, 'down-ignore');
  });

  test('an answer for another request is a failed call, not a verdict', async (t) => {
    server.handle('/bogus', (review) => ({ ...admissionAnswer(review), response: { uid: 'someone-else', allowed: true } }));
    await install(t, 'validating', 'bogus', [hook('bogus.example.com', '/bogus', [rule(['configmaps'])], { objectSelector: { matchLabels: { suite: 'bogus' } } })]);
    const e = await rejection(client.create(ConfigMaps, cm('bogus', { suite: 'bogus' })));
    assert.equal(e.code, 500);
    assert.match(e.message, /^Internal error occurred: failed calling webhook "bogus\.example\.com": received invalid webhook response: expected response\.uid="[0-9a-f-]{36}", got "someone-else"$/);
  });

  test('the serving certificate is verified against caBundle; v1beta1 is sent when it is the only version listed', async (t) => {
    server.handle('/beta', allowAll);
    const otherCA = Buffer.from((await generateCA('someone-else')).certPem).toString('base64');
    await install(t, 'validating', 'tls', [
      { ...hook('untrusted.example.com', '/beta', [rule(['configmaps'])], { objectSelector: { matchLabels: { suite: 'tls' } } }), clientConfig: { url: `${server.url}/beta`, caBundle: otherCA } },
      hook('beta.example.com', '/beta', [rule(['configmaps'])], { admissionReviewVersions: ['v1beta1'], objectSelector: { matchLabels: { suite: 'beta' } } }),
    ]);
    const e = await rejection(client.create(ConfigMaps, cm('tls', { suite: 'tls' })));
    assert.equal(e.message, `Internal error occurred: failed calling webhook "untrusted.example.com": failed to call webhook: Post "${server.url}/beta?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
    assert.equal(server.reviews('/beta').length, 0);
    await client.create(ConfigMaps, cm('beta', { suite: 'beta' }));
    assert.deepEqual(server.reviews('/beta').map((r) => r.apiVersion), ['admission.k8s.io/v1beta1']);
  });

  test('a webhook slower than timeoutSeconds fails with context deadline exceeded', async (t) => {
    server.handle('/slow', (review) => new Promise((resolve) => setTimeout(() => resolve(admissionAnswer(review)), 1500)));
    await install(t, 'validating', 'slow', [hook('slow.example.com', '/slow', [rule(['configmaps'])], { timeoutSeconds: 1, objectSelector: { matchLabels: { suite: 'slow' } } })]);
    const started = Date.now();
    const e = await rejection(client.create(ConfigMaps, cm('slow', { suite: 'slow' })));
    assert.ok(Date.now() - started < 1400, 'the call is abandoned at the deadline');
    assert.equal(e.code, 500);
    assert.equal(e.message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${server.url}/slow?timeout=1s": context deadline exceeded`);
  });

  test('namespaceSelector uses the namespace\'s labels (a Namespace its own); objectSelector matches new or old labels', async (t) => {
    server.handle('/ns', allowAll);
    server.handle('/obj', allowAll);
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel-in', labels: { env: 'sel' } } });
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel-out' } });
    await install(t, 'validating', 'selectors', [
      hook('ns.example.com', '/ns', [rule(['configmaps', 'namespaces'])], { namespaceSelector: { matchLabels: { env: 'sel' } } }),
      hook('obj.example.com', '/obj', [rule(['configmaps'])], { objectSelector: { matchLabels: { app: 'watched' } } }),
    ]);
    await client.create(ConfigMaps, cm('in', {}, 'sel-in'));
    await client.create(ConfigMaps, cm('out', {}, 'sel-out'));
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel-new', labels: { env: 'sel' } } });
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel-plain' } });
    const nsNames = server.reviews('/ns').map((r) => `${r.request!.kind.kind}/${(r.request!.object as KObject).metadata.name}`);
    assert.deepEqual(nsNames, ['ConfigMap/in', 'Namespace/sel-new']);

    const watched = await client.create(ConfigMaps, cm('watched', { app: 'watched' }, 'sel-out'));
    await client.create(ConfigMaps, cm('unwatched', {}, 'sel-out'));
    // Removing the label still reaches the webhook: the old object matches.
    await client.update(ConfigMaps, { ...watched, metadata: { ...watched.metadata, labels: {} } });
    const objOps = server.reviews('/obj').map((r) => `${r.request!.operation} ${r.request!.name}`);
    assert.deepEqual(objOps, ['CREATE watched', 'UPDATE watched']);
  });

  test('a pods/status rule is called for status updates, a pods rule is not', async (t) => {
    server.handle('/status', allowAll);
    server.handle('/main', allowAll);
    const selector = { objectSelector: { matchLabels: { suite: 'sub' } } };
    await install(t, 'validating', 'subresources', [
      hook('status.example.com', '/status', [rule(['pods/status'])], selector),
      hook('main.example.com', '/main', [rule(['pods'])], selector),
    ]);
    const created = await client.create(Pods, pod('sub', { suite: 'sub' }));
    await client.updateStatus(Pods, { ...created, status: { phase: 'Running' } });
    assert.deepEqual(server.reviews('/main').map((r) => `${r.request!.operation}:${r.request!.subResource ?? ''}`), ['CREATE:']);
    const statusReviews = server.reviews('/status');
    assert.deepEqual(statusReviews.map((r) => `${r.request!.operation}:${r.request!.subResource}`), ['UPDATE:status']);
    assert.equal(((statusReviews[0].request!.object as KObject).status as { phase?: string }).phase, 'Running');
    assert.equal(((statusReviews[0].request!.oldObject as KObject).status as { phase?: string }).phase, 'Pending');
  });

  test('DELETE sends the old object and DeleteOptions', async (t) => {
    server.handle('/delete', allowAll);
    await install(t, 'validating', 'deletes', [hook('delete.example.com', '/delete', [rule(['configmaps'], ['DELETE'])], { objectSelector: { matchLabels: { suite: 'delete' } } })]);
    await client.create(ConfigMaps, cm('doomed', { suite: 'delete' }));
    await client.delete(ConfigMaps, 'default', 'doomed', { gracePeriodSeconds: 0 });
    const [review] = server.reviews('/delete');
    assert.equal(review.request!.operation, 'DELETE');
    assert.equal(review.request!.object, null);
    assert.equal((review.request!.oldObject as KObject).metadata.name, 'doomed');
    assert.deepEqual((review.request!.oldObject as KObject).data, { a: '1' });
    assert.equal((review.request!.options as { kind?: string; gracePeriodSeconds?: number }).kind, 'DeleteOptions');
  });

  test('a mutating webhook answering DELETE with a patch fails the delete with 500 and keeps the object', async (t) => {
    server.handle('/patch-delete', (review) => admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }));
    await install(t, 'mutating', 'patch-deletes', [hook('patchdelete.example.com', '/patch-delete', [rule(['configmaps'], ['DELETE'])], { objectSelector: { matchLabels: { suite: 'patch-delete' } } })]);
    await client.create(ConfigMaps, cm('kept', { suite: 'patch-delete' }));
    const e = await rejection(client.delete(ConfigMaps, 'default', 'kept'));
    assert.equal(e.code, 500);
    assert.equal(e.message, 'Internal error occurred: admission webhook "patchdelete.example.com" attempted to modify the object, which is not supported for this operation');
    assert.equal((await client.get(ConfigMaps, 'default', 'kept')).metadata.name, 'kept');
  });

  test('dry run reaches side-effect-free webhooks with dryRun true and persists nothing; others fail it with 400', async (t) => {
    server.handle('/dry', (review) => admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/labels/dry', value: String(review.request!.dryRun) }] }));
    await install(t, 'mutating', 'dry', [hook('dry.example.com', '/dry', [rule(['configmaps'])], { objectSelector: { matchLabels: { suite: 'dry' } } })]);
    const result = await client.create(ConfigMaps, cm('dry', { suite: 'dry' }), { dryRun: true });
    assert.equal(result.metadata.labels?.dry, 'true');
    await assert.rejects(client.get(ConfigMaps, 'default', 'dry'), (e: StatusError) => e.code === 404);

    // sideEffects Unknown is refused by v1 validation today; such a configuration can only be an old stored one.
    server.handle('/unknown', allowAll);
    const legacy = webhookConfiguration('ValidatingWebhookConfiguration', 'side-effects', [
      hook('unknown.example.com', '/unknown', [rule(['configmaps'])], { sideEffects: 'Unknown', objectSelector: { matchLabels: { suite: 'side' } } }),
    ]);
    await env.plane.store.create('/admissionregistration.k8s.io/validatingwebhookconfigurations/side-effects', legacy);
    t.after(() => client.delete(ValidatingWebhookConfigurations, undefined, 'side-effects'));
    const e = await rejection(client.create(ConfigMaps, cm('side', { suite: 'side' }), { dryRun: true }));
    assert.equal(e.code, 400);
    assert.equal(e.message, 'admission webhook "unknown.example.com" does not support dry run');
    assert.equal(server.reviews('/unknown').length, 0);
    await client.create(ConfigMaps, cm('side', { suite: 'side' }));
    assert.equal(server.reviews('/unknown').length, 1);
  });

  test('reinvocationPolicy IfNeeded calls a webhook again when a later one changed the object', async (t) => {
    server.handle('/first', (review) => {
      const labels = (review.request!.object as KObject).metadata.labels ?? {};
      return admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/labels/saw-second', value: labels.second ?? 'none' }] });
    });
    server.handle('/second', (review) => admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/labels/second', value: 'done' }] }));
    const selector = { objectSelector: { matchLabels: { suite: 'reinvoke' } } };
    await install(t, 'mutating', 'a-first', [hook('first.example.com', '/first', [rule(['configmaps'])], { ...selector, reinvocationPolicy: 'IfNeeded' })]);
    await install(t, 'mutating', 'b-second', [hook('second.example.com', '/second', [rule(['configmaps'])], { ...selector, reinvocationPolicy: 'IfNeeded' })]);
    const created = await client.create(ConfigMaps, cm('reinvoked', { suite: 'reinvoke' }));
    assert.equal(created.metadata.labels?.second, 'done');
    assert.equal(created.metadata.labels?.['saw-second'], 'done');
    assert.equal(server.reviews('/first').length, 2);
    assert.equal(server.reviews('/second').length, 1, 'a webhook is not reinvoked for its own change');
  });

  test('a Service clientConfig is resolved through its Endpoints', async (t) => {
    server.handle('/svc', (review) => admissionAnswer(review, { patch: [{ op: 'add', path: '/metadata/labels/via', value: 'service' }] }));
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'webhooks' } });
    await client.create(Services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks', namespace: 'webhooks' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } });
    await install(t, 'mutating', 'service', [{
      name: 'svc.example.com', clientConfig: { service: { namespace: 'webhooks', name: 'hooks', path: '/svc' }, caBundle: server.caBundle },
      rules: [rule(['configmaps'])], objectSelector: { matchLabels: { suite: 'svc' } },
    }]);
    const missing = await rejection(client.create(ConfigMaps, cm('no-endpoints', { suite: 'svc' })));
    assert.equal(missing.message, 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://hooks.webhooks.svc:443/svc?timeout=10s": endpoints "hooks" not found');
    await client.create(Endpoints, {
      apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hooks', namespace: 'webhooks' },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port }] }],
    });
    const created = await client.create(ConfigMaps, cm('via-service', { suite: 'svc' }));
    assert.equal(created.metadata.labels?.via, 'service');
  });

  test('a deployments/scale webhook sees a Scale and its patch reaches spec.replicas', async (t) => {
    server.handle('/scale', (review) => admissionAnswer(review, { patch: [{ op: 'replace', path: '/spec/replicas', value: 3 }] }));
    await install(t, 'mutating', 'scale', [hook('scale.example.com', '/scale', [rule(['deployments/scale'], ['UPDATE'], 'apps')])]);
    await client.create(Deployments, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'scaled', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'scaled' } }, template: { metadata: { labels: { app: 'scaled' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    await client.patch(Deployments, 'default', 'scaled', 'merge', { spec: { replicas: 5 } }, { subresource: 'scale' });
    const [review] = server.reviews('/scale');
    assert.deepEqual(review.request!.kind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.equal((review.request!.object as unknown as { spec: { replicas: number } }).spec.replicas, 5);
    assert.equal((review.request!.oldObject as unknown as { spec: { replicas: number } }).spec.replicas, 1);
    const d = await client.get<KObject & { spec: { replicas: number } }>(Deployments, 'default', 'scaled');
    assert.equal(d.spec.replicas, 3);
  });

  test('webhook configurations themselves never reach webhooks', async (t) => {
    server.handle('/meta', (review) => admissionAnswer(review, { allowed: false }));
    await install(t, 'validating', 'meta', [hook('meta.example.com', '/meta', [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }], {
      objectSelector: { matchLabels: { suite: 'meta' } },
    })]);
    // Would be denied if it reached the webhook; a broken webhook can always be removed.
    const other = webhookConfiguration('MutatingWebhookConfiguration', 'meta-other', [hook('other.example.com', '/other', [rule(['pods'])])]);
    other.metadata.labels = { suite: 'meta' };
    await client.create(MutatingWebhookConfigurations, other);
    await client.delete(MutatingWebhookConfigurations, undefined, 'meta-other');
    assert.equal(server.reviews('/meta').length, 0);
  });
});
