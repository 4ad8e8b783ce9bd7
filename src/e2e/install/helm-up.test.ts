/**
 * The chart against `kruise up` (started with --no-kruise-install): the embedded server takes what
 * Helm does (release Secrets, upgrades, the pre-delete hook Job); then `kruise install` and
 * `kruise uninstall` on the same cluster: refused while a CloneSet exists, and removing the CRDs only
 * when crds.managed (docs/design/install.md §3).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { chartPath, helm, helmAvailable } from '../../testing/helm.js';
import { runHookPods } from '../../testing/hook-pods.js';
import { kubectlFor } from '../../testing/kubectl.js';
import { startManagerProcess, startUp, stopChild, type ManagerProcess, type UpProcess } from '../../testing/process.js';

type Obj = Record<string, any>; // any: kubectl's JSON output

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
const kruise = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
  execFile(process.execPath, [bin, ...args], { timeout: 60_000 }, (e, stdout, stderr) => resolve({ code: e ? 1 : 0, stdout, stderr }));
});
const cloneSet = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'keep', namespace: 'default' },
  spec: { replicas: 0, selector: { matchLabels: { app: 'keep' } }, template: { metadata: { labels: { app: 'keep' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
const helmState = helmAvailable();

describe('the chart and kruise uninstall on kruise up', { timeout: 300_000 }, () => {
  let dir = '';
  let up: UpProcess;
  let kubeconfig = '';
  let kubectl: ReturnType<typeof kubectlFor>;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-helm-up-'));
    up = await startUp(['--port', '0', '--data-dir', path.join(dir, 'up'), '--nodes', '0', '--no-kruise-install', '--no-kruise-daemon']);
    kubeconfig = path.join(dir, 'up', 'kubeconfig');
    kubectl = kubectlFor(kubeconfig, path.join(dir, 'kube-cache'));
  });
  after(async () => {
    up?.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  const json = async (args: string[]): Promise<Obj> => {
    const r = await kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Obj;
  };
  /** A `kruise manager` attached to the installed configuration (its webhooks admit the CloneSet). */
  const withManager = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
    const manager: ManagerProcess = await startManagerProcess(kubeconfig, path.join(dir, name), 60_000);
    try {
      return await body();
    } finally {
      await stopChild(manager.child);
    }
  };
  const gone = async (what: string) => assert.match((await kubectl(['get', what])).stderr, /NotFound/, `${what} is gone`);

  test('helm install, upgrade and uninstall (its pre-delete hook refusing first)', { skip: helmState.available ? false : helmState.reason }, async () => {
    const home = path.join(dir, 'helm');
    const installed = await helm(['install', 'kruise', chartPath, '--kubeconfig', kubeconfig], home);
    assert.equal(installed.code, 0, installed.stderr);
    const upgraded = await helm(['upgrade', 'kruise', chartPath, '--kubeconfig', kubeconfig, '--set', 'manager.replicas=3'], home);
    assert.equal(upgraded.code, 0, upgraded.stderr);
    assert.equal((await json(['get', 'deployment', '-n', 'kruise-system', 'kruise-controller-manager'])).spec.replicas, 3);
    const releases = await json(['get', 'secrets', '-n', 'default', '-l', 'owner=helm,name=kruise']);
    assert.deepEqual(releases.items.map((s: Obj) => `${s.metadata.name} ${s.type} ${s.metadata.labels.status}`).sort(),
      ['sh.helm.release.v1.kruise.v1 helm.sh/release.v1 superseded', 'sh.helm.release.v1.kruise.v2 helm.sh/release.v1 deployed']);

    const hooks = runHookPods(kubectl, kubeconfig, 'kruise-system', 'control-plane=uninstall-check', path.join(dir, 'hooks'));
    await withManager('helm-manager', async () => {
      const created = await kubectl(['apply', '-f', '-'], { input: stringify(cloneSet) });
      assert.equal(created.code, 0, created.stderr);
      const refused = await helm(['uninstall', 'kruise', '--kubeconfig', kubeconfig, '--timeout', '2m'], home);
      assert.match(refused.stderr, /job kruise-uninstall-check failed: BackoffLimitExceeded/);
      assert.match(hooks.runs[0]!.output, /refusing to uninstall: 1 Kruise workload\(s\) still exist: CloneSet default\/keep/);
      assert.equal((await kubectl(['delete', 'clonesets.apps.kruise.io', 'keep', '--wait=true'])).code, 0);
      const removed = await helm(['uninstall', 'kruise', '--kubeconfig', kubeconfig, '--timeout', '2m'], home);
      assert.equal(removed.code, 0, removed.stderr);
    }).finally(() => hooks.stop());
    for (const what of ['crd/clonesets.apps.kruise.io', 'clusterrole/kruise-manager-role', 'validatingwebhookconfiguration/kruise-validating-webhook-configuration']) await gone(what);
    assert.equal((await json(['get', 'secrets', '-n', 'default', '-l', 'owner=helm,name=kruise'])).items.length, 0);
  });

  test('kruise uninstall refuses while a CloneSet exists; then removes everything, the CRDs only when crds.managed', async () => {
    const unmanaged = path.join(dir, 'unmanaged.yaml');
    await writeFile(unmanaged, 'crds:\n  managed: false\n');
    for (const [values, crdsStay] of [[[], false], [['-f', unmanaged], true]] as const) {
      const installed = await kruise(['install', '--kubeconfig', kubeconfig]);
      assert.equal(installed.code, 0, installed.stderr);
      await kubectl(['wait', '--for=condition=established', 'crd/clonesets.apps.kruise.io']);
      const removed = await withManager(`manager-${values.length}`, async () => {
        const created = await kubectl(['apply', '-f', '-'], { input: stringify(cloneSet) });
        assert.equal(created.code, 0, created.stderr);
        const refused = await kruise(['uninstall', '--kubeconfig', kubeconfig, ...values]);
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /kruise uninstall: refusing to uninstall: 1 Kruise workload\(s\) still exist: CloneSet default\/keep; delete them first/);
        assert.equal((await kubectl(['delete', 'clonesets.apps.kruise.io', 'keep', '--wait=true'])).code, 0);
        return kruise(['uninstall', '--kubeconfig', kubeconfig, ...values]);
      });
      assert.equal(removed.code, 0, removed.stderr);
      const lines = removed.stdout.split('\n');
      assert.ok(lines.indexOf('validatingwebhookconfiguration/kruise-validating-webhook-configuration deleted') < lines.indexOf('deployment/kruise-controller-manager deleted'), 'webhooks go before the manager');
      for (const what of ['clusterrole/kruise-manager-role', 'mutatingwebhookconfiguration/kruise-mutating-webhook-configuration']) await gone(what);
      const crd = await kubectl(['get', 'crd', 'clonesets.apps.kruise.io']);
      assert.equal(crd.code === 0, crdsStay, crd.stderr);
    }
  });
});
