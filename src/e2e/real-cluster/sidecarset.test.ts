/**
 * SidecarSet on a REAL control plane (kube-apiserver + kube-controller-manager v1.32 from
 * scripts/real-control-plane.sh; docs/design/sidecarset.md §9): kube-apiserver calls the pod
 * webhook of `kruise manager` running out of process, the real Deployment controller's pods get the
 * sidecar, and an image change rolls only the sidecar in place. Our scheduler and simulated nodes
 * act as kubelets. Skipped, with the reason, when the binaries are not cached.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { kubectlFor } from '../../testing/kubectl.js';
import { startComponentProcess, startManagerProcess, type ManagerProcess } from '../../testing/process.js';
import { realControlPlaneAvailable, startRealControlPlane, type RealControlPlane } from '../../testing/real-control-plane.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
const availability = realControlPlaneAvailable();

describe('SidecarSet on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 420_000 }, () => {
  let real: RealControlPlane | undefined;
  let dir: string;
  let manager: ManagerProcess | undefined;
  const children: ChildProcess[] = [];
  let kubectl: ReturnType<typeof kubectlFor>;
  const json = async (args: string[]): Promise<Obj> => {
    const r = await kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Obj;
  };
  const pods = async (app: string): Promise<Obj[]> =>
    ((await json(['get', 'pods', '-l', `app=${app}`])).items as Obj[]).filter((p) => !p.metadata.deletionTimestamp);

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-real-sidecarset-'));
    real = await startRealControlPlane();
    kubectl = kubectlFor(real.kubeconfig, path.join(dir, 'kube-cache'));
    const installed = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, 'install', '--kubeconfig', real!.kubeconfig], { timeout: 60_000 }, (e, _o, stderr) => resolve({ code: e ? 1 : 0, stderr }));
    });
    assert.equal(installed.code, 0, installed.stderr);
    manager = await startManagerProcess(real.kubeconfig, path.join(dir, 'certs'));
    children.push(await startComponentProcess(['nodes', '--kubeconfig', real.kubeconfig, '--count', '3', '--name-prefix', 'sim-'], /nodes ready/));
    children.push(await startComponentProcess(['scheduler', '--kubeconfig', real.kubeconfig], /scheduler ready/));
  });
  after(async () => {
    for (const c of [...children, ...(manager ? [manager.child] : [])]) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
    await real?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('a Deployment\'s pods get the manual\'s SidecarSet; an image change restarts only the sidecar, in place', async () => {
    const sidecarSet = {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'log-agent' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'agent', image: 'busybox:1.35', command: ['sleep', '3600'], volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }] }],
        volumes: [{ name: 'logs', emptyDir: {} }],
      },
    };
    const deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } } },
    };
    for (const obj of [sidecarSet, deployment]) {
      const applied = await kubectl(['apply', '-f', '-'], { input: stringify(obj) });
      assert.equal(applied.code, 0, applied.stderr);
    }
    const status = (check: (s: Obj, live: Obj[]) => boolean, what: string) => eventually(what, async () => {
      const set = await json(['get', 'sidecarsets.v1beta1.apps.kruise.io', 'log-agent']);
      const live = await pods('web');
      return set.status?.observedGeneration === set.metadata.generation && check(set.status, live) ? { set, live } : undefined;
    }, 90_000);
    const first = await status((s, live) => s.matchedPods === 2 && s.readyPods === 2 && live.length === 2, '2 matched and ready pods');
    for (const pod of first.live) {
      assert.deepEqual(pod.spec.containers.map((c: Obj) => c.name), ['agent', 'main']);
      assert.equal(pod.metadata.annotations['kruise.io/sidecarset-injected-list'], 'log-agent');
      assert.ok(pod.spec.containers[0].env.some((e: Obj) => e.name === 'IS_INJECTED' && e.value === 'true'));
      assert.match(pod.spec.nodeName, /^sim-/);
    }
    assert.match(first.set.status.latestRevision, /^log-agent-/);
    const uids = new Map(first.live.map((p) => [p.metadata.name, p.metadata.uid]));

    const patched = await kubectl(['patch', 'sidecarset', 'log-agent', '--type', 'merge', '-p',
      JSON.stringify({ spec: { containers: [{ ...sidecarSet.spec.containers[0], image: 'busybox:1.36' }] } })]);
    assert.equal(patched.code, 0, patched.stderr);
    const rolled = await status((s, live) => s.updatedPods === 2 && s.updatedReadyPods === 2
      && live.every((p) => p.status.containerStatuses.find((c: Obj) => c.name === 'agent')?.restartCount === 1), 'both pods updated in place');
    assert.deepEqual(new Map(rolled.live.map((p) => [p.metadata.name, p.metadata.uid])), uids);
    for (const pod of rolled.live) {
      assert.equal(pod.spec.containers[0].image, 'busybox:1.36');
      assert.equal(pod.status.containerStatuses.find((c: Obj) => c.name === 'main').restartCount, 0);
      assert.ok(JSON.parse(pod.metadata.annotations['kruise.io/sidecarset-inplace-update-state'])['log-agent']);
    }
  });
});
