/**
 * The simulated kubelet of `kruise up`, seen through kubectl: a pod whose liveness probe is scripted
 * to fail after 3 s is restarted with an Unhealthy event in `kubectl describe`; a pod missing a
 * ConfigMap key shows CreateContainerConfigError until `kubectl create configmap`; `kubectl debug`
 * adds an ephemeral container that the kubelet starts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';
import { kubectlFor } from '../../testing/kubectl.js';

const livenessPod = `apiVersion: v1
kind: Pod
metadata:
  name: liveness-demo
  annotations: { kruise-ts.io/simulate-liveness.app: "fail-after=3s" }
spec:
  containers:
  - name: app
    image: nginx:1.25
    livenessProbe: { httpGet: { path: /healthz, port: 80 }, periodSeconds: 1, failureThreshold: 1 }
`;

const configPod = `apiVersion: v1
kind: Pod
metadata: { name: config-demo }
spec:
  containers:
  - name: app
    image: nginx:1.25
    env: [{ name: MODE, valueFrom: { configMapKeyRef: { name: app-config, key: mode } } }]
`;

let dir: string;
let up: UpProcess;
let k: ReturnType<typeof kubectlFor>;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-probes-'));
  up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory']);
  k = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache'));
  const nodes = await k(['wait', '--for=condition=Ready', 'nodes', '--all', '--timeout=30s']);
  assert.equal(nodes.code, 0, nodes.stderr);
});

after(async () => {
  await stopChild(up.child);
  await rm(dir, { recursive: true, force: true });
});

/** Runs `kubectl get pod <name>` until its row matches. */
async function podRowMatching(name: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let row = '';
  while (Date.now() < deadline) {
    row = (await k(['get', 'pod', name, '--no-headers'])).stdout;
    if (pattern.test(row)) return row;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`kubectl get pod ${name}: ${JSON.stringify(row)} never matched ${pattern}`);
}

test('a pod whose liveness probe starts failing is restarted, and describe shows why', async () => {
  const applied = await k(['apply', '-f', '-'], { input: livenessPod });
  assert.equal(applied.code, 0, applied.stderr);
  const row = await podRowMatching('liveness-demo', /^liveness-demo\s+\d\/1\s+\S+\s+1(\s|$)/);
  assert.match(row, /^liveness-demo\s+[01]\/1\s+(Running|ContainerCreating)\s+1 \(\d+s ago\)/);
  const described = await k(['describe', 'pod', 'liveness-demo']);
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /Warning\s+Unhealthy\s+.*kubelet\s+Liveness probe failed: HTTP probe failed with statuscode: 500/);
  assert.match(described.stdout, /Normal\s+Killing\s+.*kubelet\s+Container app failed liveness probe, will be restarted/);
  assert.match(described.stdout, /Last State:\s+Terminated/);
  assert.match(described.stdout, /Restart Count:\s+1/);
});

test('a missing ConfigMap key is CreateContainerConfigError until kubectl create configmap', async () => {
  const applied = await k(['apply', '-f', '-'], { input: configPod });
  assert.equal(applied.code, 0, applied.stderr);
  await podRowMatching('config-demo', /^config-demo\s+0\/1\s+CreateContainerConfigError\s+0\s/);
  const described = await k(['describe', 'pod', 'config-demo']);
  assert.match(described.stdout, /Reason:\s+CreateContainerConfigError/);
  assert.match(described.stdout, /Warning\s+Failed\s+.*kubelet\s+Error: configmap "app-config" not found/);
  const created = await k(['create', 'configmap', 'app-config', '--from-literal=mode=fast']);
  assert.equal(created.code, 0, created.stderr);
  const ready = await k(['wait', '--for=condition=Ready', 'pod/config-demo', '--timeout=30s']);
  assert.equal(ready.code, 0, ready.stderr + ready.stdout);
  assert.match(await podRowMatching('config-demo', /Running/), /^config-demo\s+1\/1\s+Running\s+0\s/);
});

test('kubectl debug adds an ephemeral container that the kubelet runs', async () => {
  const debug = await k(['debug', 'config-demo', '--image=busybox:1.36', '--target=app', '-c', 'debugger', '--profile=general', '--', 'sleep', 'infinity']);
  assert.equal(debug.code, 0, debug.stderr);
  const deadline = Date.now() + 30_000;
  let state = '';
  while (Date.now() < deadline && !state.includes('running')) {
    state = (await k(['get', 'pod', 'config-demo', '-o', 'jsonpath={.status.ephemeralContainerStatuses[0].state}'])).stdout;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.match(state, /"running"/);
  assert.match((await k(['describe', 'pod', 'config-demo'])).stdout, /Ephemeral Containers:\s+debugger:/);
});
