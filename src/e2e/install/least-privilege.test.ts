/**
 * The roles `kruise install` ships are enough and are what the processes use (docs/design/manager.md
 * §8): `kruise manager` and `kruise daemon` run with tokens of their own ServiceAccounts
 * (`kubectl create token`), on servers that enforce RBAC: `kruise up` and the real kube-apiserver.
 * A CloneSet scales and rolls in place, a ContainerRecreateRequest restarts a container, and
 * neither process ever hears a 403. The chart's own objects, installed by Helm, with the processes run
 * as pods (in-pod environment, TokenRequest tokens), are src/e2e/install/helm-real.test.ts.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { readFile } from 'node:fs/promises';
import { buildKubeconfig, writeKubeconfig } from '../../apiserver/auth/kubeconfig.js';
import { kubectlFor } from '../../testing/kubectl.js';
import { startComponentProcess, startManagerProcess, startUp, stopChild } from '../../testing/process.js';
import { realControlPlaneAvailable, startRealControlPlane } from '../../testing/real-control-plane.js';
import { outputOf } from '../../testing/real-kruise.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

function stopAtEnd(child: ChildProcess): void {
  cleanups.push(() => stopChild(child));
}

async function runLeastPrivilege(adminKubeconfig: string, dir: string): Promise<void> {
  const kubectl = kubectlFor(adminKubeconfig, path.join(dir, 'kube-cache'));
  const installed = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, 'install', '--no-workloads', '--kubeconfig', adminKubeconfig], { timeout: 60_000 }, (e, _o, stderr) => resolve({ code: e ? 1 : 0, stderr }));
  });
  assert.equal(installed.code, 0, installed.stderr);
  const admin = parse(await readFile(adminKubeconfig, 'utf8')) as Obj;
  const cluster = admin.clusters[0].cluster as Obj;
  const kubeconfigFor = async (serviceAccount: string): Promise<string> => {
    const token = await kubectl(['create', 'token', serviceAccount, '-n', 'kruise-system', '--duration', '1h']);
    assert.equal(token.code, 0, token.stderr);
    const file = path.join(dir, `${serviceAccount}.kubeconfig`);
    const caPem = Buffer.from(cluster['certificate-authority-data'] as string, 'base64').toString();
    await writeKubeconfig(file, buildKubeconfig({ server: cluster.server, caPem, user: serviceAccount, token: token.stdout.trim() }));
    return file;
  };

  const manager = await startManagerProcess(await kubeconfigFor('kruise-manager'), path.join(dir, 'certs'));
  stopAtEnd(manager.child);
  const criDir = path.join(dir, 'cri');
  const nodes = await startComponentProcess(['nodes', '--kubeconfig', adminKubeconfig, '--count', '1', '--name-prefix', 'lp-', '--cri-dir', criDir], /nodes ready/);
  stopAtEnd(nodes);
  const scheduler = await startComponentProcess(['scheduler', '--kubeconfig', adminKubeconfig], /scheduler ready/);
  stopAtEnd(scheduler);
  const daemon = await startComponentProcess(
    ['daemon', '--kubeconfig', await kubeconfigFor('kruise-daemon'), '--node-name', 'lp-0', '--socket-file', path.join(criDir, 'lp-0.sock'), '--addr', '127.0.0.1:0'],
    /kruise-daemon ready on node lp-0/,
  );
  stopAtEnd(daemon);
  const daemonOutput = outputOf(daemon);

  const json = async (args: string[]): Promise<Obj> => {
    const r = await kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Obj;
  };
  const apply = async (manifest: Obj) => {
    const r = await kubectl(['apply', '-f', '-'], { input: stringify(manifest) });
    assert.equal(r.code, 0, r.stderr);
  };
  await apply({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'lp', namespace: 'default' },
    spec: {
      replicas: 2, selector: { matchLabels: { app: 'lp' } }, updateStrategy: { type: 'InPlaceIfPossible' },
      template: { metadata: { labels: { app: 'lp' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
    },
  });
  const settled = (image: string) => eventually(`lp settled on ${image}`, async () => {
    const cs = await json(['get', 'clonesets.apps.kruise.io', 'lp']);
    const pods = (await json(['get', 'pods', '-l', 'app=lp'])).items as Obj[];
    const ready = pods.filter((p) => p.spec.containers[0].image === image && p.status?.containerStatuses?.[0]?.ready);
    return cs.status?.updatedReadyReplicas === 2 && ready.length === 2 ? pods : undefined;
  }, 90_000);
  const first = await settled('nginx:1.25-alpine');
  const patched = await kubectl(['patch', 'clone', 'lp', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } })]);
  assert.equal(patched.code, 0, patched.stderr);
  const rolled = await settled('nginx:1.26-alpine');
  assert.deepEqual(rolled.map((p) => p.metadata.uid).sort(), first.map((p) => p.metadata.uid).sort(), 'rolled in place');

  await apply({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { name: 'lp-crr', namespace: 'default' },
    spec: { podName: first[0]!.metadata.name, containers: [{ name: 'web' }], strategy: { minStartedSeconds: 1 } },
  });
  const crr = await eventually('CRR completed', async () => {
    const c = await json(['get', 'containerrecreaterequests.apps.kruise.io', 'lp-crr']);
    return c.status?.phase === 'Completed' ? c : undefined;
  }, 90_000);
  assert.deepEqual(crr.status.containerRecreateStates.map((s: Obj) => `${s.name}:${s.phase}`), ['web:Succeeded']);

  for (const [who, out] of [['kruise manager', manager.output()], ['kruise daemon', daemonOutput()]] as const) {
    const refused = out.split('\n').filter((l) => /forbidden|"code":403/i.test(l));
    assert.deepEqual(refused.slice(0, 5), [], `${who} was refused something`);
  }
}

describe('the installed roles are enough: manager and daemon with their own ServiceAccount tokens', { timeout: 300_000 }, () => {
  test('on kruise up (RBAC enforced)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-least-privilege-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const up = await startUp(['--port', '0', '--data-dir', path.join(dir, 'up'), '--nodes', '0', '--no-kruise-manager', '--no-kruise-daemon']);
    cleanups.push(async () => { up.child.kill('SIGKILL'); });
    await runLeastPrivilege(path.join(dir, 'up', 'kubeconfig'), dir);
  });

  const real = realControlPlaneAvailable();
  test('on the real kube-apiserver v1.32', { skip: real.available ? false : real.reason }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-least-privilege-real-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const plane = await startRealControlPlane();
    cleanups.push(() => plane.stop());
    await runLeastPrivilege(plane.kubeconfig, dir);
  });
});
