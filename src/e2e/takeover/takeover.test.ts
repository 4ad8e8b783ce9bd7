/**
 * Taking over from OpenKruise (docs/design/takeover.md): a cluster holds CloneSet, Advanced
 * StatefulSet, Advanced DaemonSet and SidecarSet objects, their ControllerRevisions and running pods
 * exactly as OpenKruise's manager left them; `kruise install` and `kruise manager` take over. No pod
 * is recreated or restarted, the recorded revisions stay the status revisions, a label-only edit of
 * the SidecarSet keeps its hashes, and a later image change rolls every workload in place from there.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startComponentProcess, startManagerProcess, startUp } from '../../testing/process.js';
import { realControlPlaneAvailable, startRealControlPlane } from '../../testing/real-control-plane.js';
import { eventually } from '../../testing/workload-env.js';
import { TakeoverApi } from './takeover-api.js';
import * as ok from './openkruise-state.js';

type Obj = Record<string, any>; // any: API JSON read field by field

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');

/** Runs `fn` when the test ends, latest first (t.after hooks run in order of registration). */
function deferrer(t: TestContext) {
  const fns: (() => Promise<unknown>)[] = [];
  t.after(async () => { for (const f of fns.reverse()) await f().catch(() => undefined); });
  return (f: () => Promise<unknown>) => { fns.push(f); };
}
type Defer = ReturnType<typeof deferrer>;

function kruise(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => execFile(process.execPath, [bin, ...args], { timeout: 60_000 }, (e, _o, stderr) => resolve({ code: e ? 1 : 0, stderr })));
}

const sig = (p: Obj) => `${p.metadata.name}:${p.metadata.uid}:${(p.status?.containerStatuses ?? []).map((c: Obj) => c.restartCount).join('/')}`;

async function runTakeover(kubeconfig: string, dir: string, defer: Defer): Promise<void> {
  const api = await TakeoverApi.connect(kubeconfig);
  const installed = await kruise(['install', '--kubeconfig', kubeconfig]); // OpenKruise's CRDs stand-in
  assert.equal(installed.code, 0, installed.stderr);
  await api.dropWebhookConfigurations();
  await api.useOpenKruiseCrds();
  const nodes = await startComponentProcess(['nodes', '--kubeconfig', kubeconfig, '--count', '2', '--name-prefix', 'to-'], /nodes ready/);
  defer(async () => { nodes.kill('SIGTERM'); });

  // --- the cluster as OpenKruise left it
  const state = await api.writeOpenKruiseState();
  const before = (await api.pods()).map(sig).sort();
  assert.equal(before.length, 3 + 2 + 2);

  // --- the switch
  const reinstalled = await kruise(['install', '--kubeconfig', kubeconfig]);
  assert.equal(reinstalled.code, 0, reinstalled.stderr);
  const manager = await startManagerProcess(kubeconfig, path.join(dir, 'certs'));
  defer(async () => { manager.child.kill('SIGTERM'); });

  // Our controllers have synced once every workload's status shows their own bookkeeping.
  const synced = await eventually('every controller synced the adopted workloads', async () => {
    const [cs, sts, ds, ss] = await Promise.all([api.get('clonesets', 'web'), api.get('statefulsets', 'db'), api.get('daemonsets', 'agent'), api.get('sidecarsets', 'log')]);
    const done = cs.status?.updatedAvailableReplicas === 2 && cs.status?.observedGeneration === cs.metadata.generation
      && sts.status?.observedGeneration === sts.metadata.generation && ds.status?.observedGeneration === ds.metadata.generation
      && ss.status?.matchedPods === 2 && ss.status?.observedGeneration === ss.metadata.generation;
    return done && { cs, sts, ds, ss };
  }, 60_000);
  // Several passes later nothing moved: same pods, same revisions.
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual((await api.pods()).map(sig).sort(), before, 'a pod was recreated or restarted');
  }
  const cs = await api.get('clonesets', 'web');
  assert.equal(cs.status.currentRevision, state.cloneSet.revisions[0].name);
  assert.equal(cs.status.updateRevision, state.cloneSet.revisions[1].name);
  assert.equal(cs.status.updatedReplicas, 2);
  assert.equal(cs.status.readyReplicas, 3);
  const sts = await api.get('statefulsets', 'db');
  assert.equal(sts.status.updateRevision, state.statefulSet.revision.name);
  assert.equal(sts.status.currentRevision, state.statefulSet.revision.name);
  assert.equal(sts.status.updatedReplicas, 2);
  const ds = await api.get('daemonsets', 'agent');
  assert.equal(ds.status.daemonSetHash, ok.daemonSetHash);
  assert.equal(ds.status.updatedNumberScheduled, 2);
  assert.equal(synced.ss.status.updatedPods, 2);
  const crd = await api.crd('clonesets.apps.kruise.io');
  assert.deepEqual([...crd.status.storedVersions].sort(), ['v1alpha1', 'v1beta1'], 'objects OpenKruise stored stay v1alpha1 (docs/design/takeover.md §3)');
  const revisionNames = (await api.list('controllerrevisions')).map((r) => r.metadata.name).sort();
  assert.deepEqual(revisionNames, [...state.cloneSet.revisions.map((r) => r.name), state.statefulSet.revision.name, state.daemonSet.revision.name].sort(),
    'no ControllerRevision of ours was added next to OpenKruise\'s');

  // A label-only edit of the SidecarSet keeps the recorded hashes (the webhook does not rehash).
  const labelled = await api.patch('sidecarsets', 'log', { metadata: { labels: { team: 'infra' } } });
  assert.equal(labelled.metadata.annotations['kruise.io/sidecarset-hash'], ok.sidecar.hash);
  assert.equal(labelled.metadata.annotations['kruise.io/sidecarset-hash-without-image'], ok.sidecar.hashWithoutImage);

  // --- later image changes roll in place from the recorded state
  const containers = (o: Obj) => ({ spec: { template: { spec: { containers: o.spec.template.spec.containers } } } });
  await api.patch('clonesets', 'web', { ...containers(ok.cloneSet(ok.images.c)), spec: { ...containers(ok.cloneSet(ok.images.c)).spec, updateStrategy: { partition: 0 } } });
  await api.patch('statefulsets', 'db', containers(ok.statefulSet(ok.images.c)));
  await api.patch('daemonsets', 'agent', containers(ok.daemonSet(ok.images.c)));
  await api.patch('sidecarsets', 'log', { spec: { containers: [{ ...ok.sidecarSet().spec.containers[0], image: ok.images.sidecarNext }] } });
  const uids = new Set(before.map((s) => s.split(':')[1]));
  await eventually('every pod runs the new images in place', async () => {
    const pods = await api.pods();
    const images = (p: Obj) => p.status?.containerStatuses?.every((c: Obj) => c.ready && [ok.images.c, ok.images.sidecarNext].some((i) => c.image.endsWith(`/${i}`)));
    return pods.length === 7 && pods.every((p) => uids.has(p.metadata.uid) && images(p));
  }, 90_000).catch(async (e: Error) => {
    const seen = (await api.pods()).map((p) => `${p.metadata.name} ${uids.has(p.metadata.uid) ? 'same' : 'NEW'} ${p.metadata.labels['controller-revision-hash']} `
      + (p.status?.containerStatuses ?? []).map((c: Obj) => `${c.name}=${c.image}${c.ready ? '' : '(not ready)'}`).join(','));
    throw new Error(`${e.message}\n${seen.join('\n')}`);
  });
  const after = await eventually('statuses settle on the new revisions', async () => {
    const [c, s, d] = await Promise.all([api.get('clonesets', 'web'), api.get('statefulsets', 'db'), api.get('daemonsets', 'agent')]);
    return c.status.updatedReadyReplicas === 3 && c.status.currentRevision === c.status.updateRevision && s.status.currentRevision === s.status.updateRevision
      && d.status.updatedNumberScheduled === 2 && d.status.numberReady === 2 && { c, s, d };
  }, 60_000);
  assert.notEqual(after.c.status.updateRevision, state.cloneSet.revisions[1].name);
  for (const p of await api.pods()) {
    const app = p.status.containerStatuses.find((c: Obj) => c.name === 'app');
    assert.equal(app.restartCount, 1, `${p.metadata.name} app restarted once, in place`);
    const owner = p.metadata.ownerReferences[0].kind as string;
    const want = owner === 'CloneSet' ? after.c.status.updateRevision : owner === 'StatefulSet' ? after.s.status.updateRevision : after.d.status.daemonSetHash;
    assert.equal(p.metadata.labels['controller-revision-hash'], want, p.metadata.name);
  }
}

test('takeover from OpenKruise on kruise up: pods kept, revisions recognised, later updates in place', { timeout: 300_000 }, async (t) => {
  const defer = deferrer(t);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-takeover-'));
  defer(() => rm(dir, { recursive: true, force: true }));
  const up = await startUp(['--port', '0', '--data-dir', path.join(dir, 'up'), '--nodes', '0', '--no-kruise-manager', '--no-kruise-daemon']);
  defer(async () => { up.child.kill('SIGKILL'); });
  await runTakeover(path.join(dir, 'up', 'kubeconfig'), dir, defer);
});

test('takeover from OpenKruise on the real kube-apiserver', { timeout: 420_000 }, async (t) => {
  const availability = realControlPlaneAvailable();
  if (!availability.available) {
    t.skip(availability.reason);
    return;
  }
  const defer = deferrer(t);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-takeover-real-'));
  defer(() => rm(dir, { recursive: true, force: true }));
  const real = await startRealControlPlane();
  defer(() => real.stop());
  await runTakeover(real.kubeconfig, dir, defer);
});
