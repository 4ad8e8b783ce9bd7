/**
 * `kruise install` and `kruise manager` against a REAL kube-apiserver v1.32 (scripts/real-control-plane.sh):
 * the real server accepts our CRDs and webhook configurations, calls the manager's admission
 * webhooks and `/convert` over HTTPS at the URL and caBundle the manager wrote, and enforces
 * deletion protection through it. Skipped, with the reason, when the binaries are not cached.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { startManagerProcess, stopChild, type ManagerProcess } from '../../testing/process.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { kubectlFor } from '../../testing/kubectl.js';
import { realControlPlaneAvailable, startRealControlPlane, type RealControlPlane } from '../../testing/real-control-plane.js';

type Obj = Record<string, any>;  

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
const availability = realControlPlaneAvailable();

function runKruise(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }));
  });
}

/** kube-apiserver picks configuration changes up through informers: retry briefly until `ok`. */
async function eventually<T>(attempt: () => Promise<T>, ok: (r: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await attempt();
    if (ok(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

const cloneSet = (name: string, apiVersion = 'apps.kruise.io/v1beta1', spec: Obj = {}) => ({
  apiVersion, kind: 'CloneSet', metadata: { name, namespace: 'default' },
  spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } }, ...spec },
});

describe('kruise manager serving a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 90_000 }, () => {
  let real: RealControlPlane | undefined;
  let dir: string;
  let manager: ManagerProcess | undefined;
  let kubectl: ReturnType<typeof kubectlFor>;
  let installOutput: string;
  const apply = (obj: unknown, ...args: string[]) => kubectl(['apply', '-f', '-', ...args], { input: stringify(obj) });

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-real-webhooks-'));
    real = await startRealControlPlane({ withControllerManager: false });
    kubectl = kubectlFor(real.kubeconfig, path.join(dir, 'kube-cache'));
    const installed = await runKruise(['install', '--no-workloads', '--kubeconfig', real.kubeconfig]);
    assert.equal(installed.code, 0, `kruise install against kube-apiserver failed:\n${installed.stderr}`);
    installOutput = installed.stdout;
    manager = await startManagerProcess(real.kubeconfig, path.join(dir, 'certs'));
  });
  after(async () => {
    if (manager) await stopChild(manager.child);
    await real?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('kube-apiserver accepts the install and the manager\'s URL-form configurations and conversion', async () => {
    assert.match(installOutput, /mutatingwebhookconfiguration\/kruise-mutating-webhook-configuration applied/);
    assert.match(installOutput, /validatingwebhookconfiguration\/kruise-validating-webhook-configuration applied/);
    const url = `https://127.0.0.1:${manager!.webhookPort}`;
    const mutating = JSON.parse((await kubectl(['get', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration', '-o', 'json'])).stdout) as Obj;
    const mcloneset = (mutating.webhooks as Obj[]).find((w) => w.name === 'mcloneset.kb.io')!;
    assert.equal(mcloneset.clientConfig.url, `${url}/mutate-apps-kruise-io-cloneset`);
    assert.ok(mcloneset.clientConfig.caBundle);
    const crd = JSON.parse((await kubectl(['get', 'crd', 'clonesets.apps.kruise.io', '-o', 'json'])).stdout) as Obj;
    assert.equal(crd.spec.conversion.strategy, 'Webhook');
    assert.equal(crd.spec.conversion.webhook.clientConfig.url, `${url}/convert`);
    assert.equal(crd.spec.conversion.webhook.clientConfig.caBundle, mcloneset.clientConfig.caBundle);
  });

  test('a minimal CloneSet is defaulted by mcloneset.kb.io', async () => {
    const r = await eventually(() => apply(cloneSet('minimal')), (x) => x.code === 0);
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse((await kubectl(['get', 'clonesets.v1beta1.apps.kruise.io', 'minimal', '-o', 'json'])).stdout) as Obj;
    assert.deepEqual(got.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 } });
    assert.equal(got.spec.revisionHistoryLimit, 10);
    assert.equal(got.spec.template.spec.containers[0].imagePullPolicy, 'Always', 'Kruise\'s default, not kube\'s IfNotPresent for a tagged image');
  });

  test('an invalid CloneSet is rejected by vcloneset.kb.io', async () => {
    const r = await apply(cloneSet('stuck', 'apps.kruise.io/v1beta1', { replicas: 3, updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /admission webhook "vcloneset.kb.io" denied the request/);
    assert.match(r.stderr, /maxUnavailable/);
    assert.equal((await kubectl(['get', 'clonesets.apps.kruise.io', 'stuck'])).code, 1, 'nothing stored');
  });

  test('kube-apiserver calls /convert: a v1alpha1 CloneSet reads as v1beta1 and back', async () => {
    const r = await apply(cloneSet('alpha', 'apps.kruise.io/v1alpha1', { updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } }));
    assert.equal(r.code, 0, r.stderr);
    const beta = JSON.parse((await kubectl(['get', 'clonesets.v1beta1.apps.kruise.io', 'alpha', '-o', 'json'])).stdout) as Obj;
    assert.equal(beta.apiVersion, 'apps.kruise.io/v1beta1');
    assert.equal(beta.spec.updateStrategy.type, 'RollingUpdate');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.podUpdatePolicy, 'InPlaceIfPossible');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.partition, 1);
    const alpha = JSON.parse((await kubectl(['get', 'clonesets.v1alpha1.apps.kruise.io', 'alpha', '-o', 'json'])).stdout) as Obj;
    assert.equal(alpha.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.equal(alpha.spec.updateStrategy.type, 'InPlaceIfPossible');
    assert.equal(alpha.spec.updateStrategy.partition, 1);
    assert.equal(alpha.spec.updateStrategy.rollingUpdate, undefined, 'flat v1alpha1 shape');
  });

  test('re-running kruise install (server-side apply) keeps what the manager wrote', async () => {
    const read = async () => {
      const m = JSON.parse((await kubectl(['get', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration', '-o', 'json'])).stdout) as Obj;
      const crd = JSON.parse((await kubectl(['get', 'crd', 'clonesets.apps.kruise.io', '-o', 'json'])).stdout) as Obj;
      return { webhooks: m.webhooks as Obj[], conversion: crd.spec.conversion as Obj };
    };
    const before = await read();
    const again = await runKruise(['install', '--no-workloads', '--kubeconfig', real!.kubeconfig]);
    assert.equal(again.code, 0, again.stderr);
    const after = await read();
    assert.deepEqual(after.webhooks.map((w) => w.clientConfig), before.webhooks.map((w) => w.clientConfig));
    assert.deepEqual(after.conversion, before.conversion);
    const r = await apply(cloneSet('after-reinstall'));
    assert.equal(r.code, 0, r.stderr);
  });

  test('a Namespace labelled delete-protection=Always is protected until the label is removed', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dp2', labels: { 'policy.kruise.io/delete-protection': 'Always' } } };
    assert.equal((await apply(ns)).code, 0);
    for (const extra of [['--dry-run=server'], []]) {
      const r = await kubectl(['delete', 'namespace', 'dp2', '--wait=false', ...extra]);
      assert.equal(r.code, 1, `delete ${extra.join(' ')} must be denied`);
      assert.match(r.stderr, /Error from server \(Forbidden\): admission webhook "vnamespace.kb.io" denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io\/delete-protection=Always/);
    }
    assert.equal((await kubectl(['label', 'namespace', 'dp2', 'policy.kruise.io/delete-protection-'])).code, 0);
    const deleted = await eventually(() => kubectl(['delete', 'namespace', 'dp2', '--wait=false']), (x) => x.code === 0);
    assert.equal(deleted.code, 0, deleted.stderr);
  });
});
