/**
 * `kruise manager` as its own process serving the embedded API server's webhooks over HTTPS, as
 * it would serve any cluster: the API server reaches it only through the URLs and caBundle the
 * manager wrote into the webhook configurations and CRDs (docs/design/webhooks.md §5). Shows defaulting
 * and conversion, deletion protection (D), what a dead manager means for Fail and Ignore
 * webhooks, and a restart that reuses its certificate.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { createInProcessClient } from '../../client/index.js';
import { installKruise } from '../../install/install.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { apiClientFromKubeconfig, startManagerProcess, stopChild, type ApiClient, type ManagerProcess } from '../../testing/process.js';

type Obj = Record<string, any>;  

const protectedMessage = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always';


const cloneSet = (name: string, apiVersion = 'apps.kruise.io/v1beta1', spec: Obj = {}) => ({
  apiVersion, kind: 'CloneSet', metadata: { name, namespace: 'default' },
  spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } }, ...spec },
});
const deployment = (name: string, namespace: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace, labels: { 'policy.kruise.io/delete-protection': 'Always' } },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
});

describe('kruise manager as a separate process', { timeout: 60_000 }, () => {
  let env: TestControlPlane;
  let certDir: string;
  let api: ApiClient;
  let manager: ManagerProcess | undefined;
  const kubectl = (args: string[], input?: unknown) => env.kubectl(args, input === undefined ? {} : { input: stringify(input) });
  const configurations = async () => {
    const [m, v] = await Promise.all([
      api.request('GET', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/kruise-mutating-webhook-configuration'),
      api.request('GET', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kruise-validating-webhook-configuration'),
    ]);
    return { mutating: m.body as Obj, validating: v.body as Obj };
  };
  const hook = (config: Obj, name: string): Obj => (config.webhooks as Obj[]).find((w) => w.name === name)!;

  before(async () => {
    env = await startTestControlPlane();
    certDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-manager-certs-'));
    await installKruise(createInProcessClient(env.plane.handler));
    api = await apiClientFromKubeconfig(env.kubeconfig);
    manager = await startManagerProcess(env.kubeconfig, certDir);
  });
  after(async () => {
    if (manager) await stopChild(manager.child, 'SIGKILL');
    await env?.stop();
    if (certDir) await rm(certDir, { recursive: true, force: true });
  });

  test('the configurations point at the port the manager really listens on (WEBHOOK_PORT=0)', async () => {
    assert.notEqual(manager!.webhookPort, 0);
    const { mutating, validating } = await configurations();
    const url = `https://127.0.0.1:${manager!.webhookPort}`;
    assert.equal(hook(mutating, 'mcloneset.kb.io').clientConfig.url, `${url}/mutate-apps-kruise-io-cloneset`);
    assert.equal(hook(validating, 'vbuiltindeployment.kb.io').clientConfig.url, `${url}/validate-apps-deployment`);
    assert.ok(hook(mutating, 'mcloneset.kb.io').clientConfig.caBundle, 'caBundle filled in');
    const crd = await api.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clonesets.apps.kruise.io');
    assert.equal(crd.body.spec.conversion.webhook.clientConfig.url, `${url}/convert`);
  });

  test('a v1alpha1 CloneSet applied through kubectl reads back as v1beta1 with every default', async () => {
    const r = await kubectl(['apply', '-f', '-'], cloneSet('alpha', 'apps.kruise.io/v1alpha1', { updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } }));
    assert.equal(r.code, 0, r.stderr);
    const beta = await kubectl(['get', 'clonesets.v1beta1.apps.kruise.io', 'alpha', '-o', 'json']);
    assert.equal(beta.code, 0, beta.stderr);
    const obj = JSON.parse(beta.stdout) as Obj;
    assert.equal(obj.apiVersion, 'apps.kruise.io/v1beta1');
    assert.deepEqual(obj.spec.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 1, maxUnavailable: '20%', maxSurge: 0, inPlaceUpdateStrategy: {} },
    });
    assert.equal(obj.spec.revisionHistoryLimit, 10);
    assert.equal(obj.spec.template.spec.containers[0].imagePullPolicy, 'Always');
    const alpha = await kubectl(['get', 'clonesets.v1alpha1.apps.kruise.io', 'alpha', '-o', 'jsonpath={.apiVersion} {.spec.updateStrategy.type}']);
    assert.equal(alpha.stdout, 'apps.kruise.io/v1alpha1 InPlaceIfPossible');
  });

  test('a Deployment labelled delete-protection=Always cannot be deleted, not even with --dry-run=server', async () => {
    assert.equal((await kubectl(['create', 'namespace', 'dp1'])).code, 0);
    const created = await kubectl(['apply', '-f', '-'], deployment('guarded', 'dp1'));
    assert.equal(created.code, 0, created.stderr);
    for (const extra of [[], ['--dry-run=server']]) {
      const r = await kubectl(['delete', 'deployment', 'guarded', '-n', 'dp1', ...extra]);
      assert.equal(r.code, 1, `delete ${extra.join(' ')} must fail`);
      assert.match(r.stderr, /Error from server \(Forbidden\): admission webhook "vbuiltindeployment.kb.io" denied the request/);
      assert.ok(r.stderr.includes(protectedMessage), r.stderr);
    }
    const raw = await api.request('DELETE', '/apis/apps/v1/namespaces/dp1/deployments/guarded');
    assert.equal(raw.status, 403);
    assert.equal(raw.body.reason, 'Forbidden');
    assert.equal((await kubectl(['get', 'deployment', 'guarded', '-n', 'dp1'])).code, 0, 'still there');
  });

  test('with the manager killed: Fail webhooks and conversion fail, the Ignore protection webhook lets the delete through', async () => {
    await stopChild(manager!.child, 'SIGKILL');
    const created = await kubectl(['create', '-f', '-'], cloneSet('while-down'));
    assert.equal(created.code, 1);
    assert.match(created.stderr, /Error from server \(InternalError\): .*Internal error occurred: failed calling webhook "mcloneset.kb.io"/);
    assert.match(created.stderr, /connection refused|ECONNREFUSED/);
    const alpha = await kubectl(['get', 'clonesets.v1alpha1.apps.kruise.io', 'alpha', '-o', 'json']);
    assert.equal(alpha.code, 1);
    assert.match(alpha.stderr, /conversion webhook for apps.kruise.io\/v1beta1, Kind=CloneSet failed/);
    const beta = await kubectl(['get', 'clonesets.v1beta1.apps.kruise.io', 'alpha', '-o', 'jsonpath={.spec.replicas}']);
    assert.equal(beta.code, 0, `the storage version needs no conversion: ${beta.stderr}`);
    const deleted = await kubectl(['delete', 'deployment', 'guarded', '-n', 'dp1']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /deployment.apps "guarded" deleted/);
  });

  test('a restarted manager with the same cert dir keeps its CA and serves again on its new port', async () => {
    const before = await configurations();
    manager = await startManagerProcess(env.kubeconfig, certDir);
    const after = await configurations();
    for (const name of ['mcloneset.kb.io', 'vcloneset.kb.io', 'vbuiltindeployment.kb.io']) {
      const config = name.startsWith('m') ? [before.mutating, after.mutating] : [before.validating, after.validating];
      assert.equal(hook(config[1], name).clientConfig.caBundle, hook(config[0], name).clientConfig.caBundle, `${name}: same CA`);
    }
    assert.equal(hook(after.mutating, 'mcloneset.kb.io').clientConfig.url, `https://127.0.0.1:${manager.webhookPort}/mutate-apps-kruise-io-cloneset`);
    const created = await kubectl(['create', '-f', '-'], cloneSet('after-restart'));
    assert.equal(created.code, 0, created.stderr);
    const defaulted = await kubectl(['get', 'clonesets.v1alpha1.apps.kruise.io', 'after-restart', '-o', 'jsonpath={.spec.updateStrategy.type}']);
    assert.equal(defaulted.stdout, 'ReCreate', 'defaulted by the webhook and converted back to v1alpha1');
  });
});
