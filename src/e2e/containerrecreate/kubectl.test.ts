/**
 * The OpenKruise manual's ContainerRecreateRequest, applied with the real kubectl 1.32 to `kruise up`
 * (a child process with its in-process kruise-daemons): the request completes, both containers
 * restart in place, and `kubectl get crr` prints the CRD's columns.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kubectlFor, type KubectlResult } from '../../testing/kubectl.js';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';

type Obj = Record<string, any>; // any: kubectl's JSON output, read field by field

const pod = `
apiVersion: v1
kind: Namespace
metadata: {name: pod-namespace}
---
apiVersion: v1
kind: Pod
metadata: {name: pod-name, namespace: pod-namespace}
spec:
  containers:
  - {name: app, image: nginx:1.25}
  - {name: sidecar, image: redis:7}
`;

// the manual's example (openkruise.io, Container Restart), comments dropped
const manualExample = `
apiVersion: apps.kruise.io/v1alpha1
kind: ContainerRecreateRequest
metadata:
  namespace: pod-namespace
  name: xxx
spec:
  podName: pod-name
  containers:
  - name: app
  - name: sidecar
  strategy:
    failurePolicy: Fail
    orderedRecreate: false
    terminationGracePeriodSeconds: 30
    unreadyGracePeriodSeconds: 3
    minStartedSeconds: 10
  activeDeadlineSeconds: 300
  ttlSecondsAfterFinished: 1800
`;

describe('ContainerRecreateRequest through kubectl on kruise up', () => {
  let dir: string;
  let up: UpProcess;
  let kubectl: (args: string[], input?: string) => Promise<KubectlResult>;
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const json = async (...args: string[]): Promise<Obj> => JSON.parse(await ok([...args, '-o', 'json'])) as Obj;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-crr-'));
    up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory', '--log-level', 'warn'], 60_000);
    const run = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'kube-cache'));
    kubectl = (args, input) => run(args, input === undefined ? {} : { input });
  });
  after(async () => {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  });

  test('the manual\'s example restarts app and sidecar in place and completes', async () => {
    await ok(['apply', '-f', '-'], pod);
    await ok(['wait', '--for=condition=Ready', 'pod/pod-name', '-n', 'pod-namespace', '--timeout=60s']);
    const before = await json('get', 'pod', 'pod-name', '-n', 'pod-namespace');
    assert.equal(await ok(['apply', '-f', '-'], manualExample), 'containerrecreaterequest.apps.kruise.io/xxx created\n');
    await ok(['wait', '--for=jsonpath={.status.phase}=Completed', 'crr/xxx', '-n', 'pod-namespace', '--timeout=90s']);

    const crr = await json('get', 'crr', 'xxx', '-n', 'pod-namespace');
    assert.equal(crr.apiVersion, 'apps.kruise.io/v1beta1');
    assert.deepEqual(crr.status.containerRecreateStates, [
      { name: 'app', phase: 'Succeeded', isKilled: true }, { name: 'sidecar', phase: 'Succeeded', isKilled: true },
    ]);
    const took = Date.parse(crr.status.completionTime) - Date.parse(crr.metadata.creationTimestamp);
    assert.ok(took >= 13_000, `3 s unready grace and 10 s minStartedSeconds hold completion (${took} ms)`);
    const after = await json('get', 'pod', 'pod-name', '-n', 'pod-namespace');
    assert.equal(after.metadata.uid, before.metadata.uid);
    assert.equal(after.status.podIP, before.status.podIP);
    assert.deepEqual(after.status.containerStatuses.map((s: Obj) => [s.name, s.restartCount]), [['app', 1], ['sidecar', 1]]);

    const [header, row] = (await ok(['get', 'crr', '-n', 'pod-namespace'])).trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(header, ['NAME', 'PHASE', 'POD', 'NODE', 'AGE']);
    assert.deepEqual(row!.slice(0, 4), ['xxx', 'Completed', 'pod-name', after.spec.nodeName]);

    const killing = (await json('get', 'events', '-n', 'pod-namespace')).items.filter((e: Obj) => e.reason === 'Killing' && e.involvedObject.name === 'pod-name');
    assert.deepEqual(killing.map((e: Obj) => e.message).sort(), ['Stopping container app by ContainerRecreateRequest xxx', 'Stopping container sidecar by ContainerRecreateRequest xxx']);
  });
});
