/** `kruise up --nodes 3` is a small cluster: a plain Deployment ends with Running, Ready pods spread over the nodes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startUp, stopChild } from '../../testing/process.js';
import { kubectlFor } from '../../testing/kubectl.js';

const manifest = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 6
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: nginx, image: nginx:1.25, resources: { requests: { cpu: 100m } } }] }
`;

test('kubectl apply of a Deployment on kruise up --nodes 3', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-up-'));
  const up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '3', '--in-memory']);
  try {
    const k = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache'));
    const nodes = await k(['wait', '--for=condition=Ready', 'nodes', '--all', '--timeout=30s']);
    assert.equal(nodes.code, 0, nodes.stderr);
    const applied = await k(['apply', '-f', '-'], { input: manifest });
    assert.equal(applied.code, 0, applied.stderr);
    const rollout = await k(['rollout', 'status', 'deploy/web', '--timeout=60s']);
    assert.equal(rollout.code, 0, rollout.stderr + rollout.stdout);
    assert.match(rollout.stdout, /successfully rolled out/);
    const pods = JSON.parse((await k(['get', 'pods', '-l', 'app=web', '-o', 'json'])).stdout).items as { spec: { nodeName: string }; status: { phase: string; conditions: { type: string; status: string }[] } }[];
    assert.equal(pods.length, 6);
    for (const p of pods) {
      assert.equal(p.status.phase, 'Running');
      assert.ok(p.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'));
    }
    const perNode = new Map<string, number>();
    for (const p of pods) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
    assert.equal(perNode.size, 3, `pods spread over all nodes: ${JSON.stringify([...perNode])}`);
    const table = await k(['get', 'deploy', 'web']);
    assert.match(table.stdout, /^web\s+6\/6\s+6\s+6\s+/m);
  } finally {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  }
});
