/**
 * The OpenKruise manual's ImagePullJob example through the real kubectl against `kruise up` (a
 * child process with its in-process daemons): the example as printed sets both node names and a
 * label selector and is refused; with the names alone it pulls on both nodes once their NodeImages
 * exist (30 s after the nodes turned Ready, as upstream waits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kubectlFor } from '../../testing/kubectl.js';
import { startUp, stopChild } from '../../testing/process.js';

const manualExample = (selector: string) => `apiVersion: apps.kruise.io/v1alpha1
kind: ImagePullJob
metadata:
  name: job-with-always
spec:
  image: nginx:1.9.1
  parallelism: 10
  selector:
${selector}
  completionPolicy:
    type: Always
    activeDeadlineSeconds: 1200
    ttlSecondsAfterFinished: 300
  pullPolicy:
    backoffLimit: 3
    timeoutSeconds: 300
  pullSecrets:
  - secret-name1
  - secret-name2
`;

test('kubectl: the manual ImagePullJob example on kruise up', { timeout: 150_000 }, async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ipj-'));
  const up = await startUp(['--port', '0', '--data-dir', dir, '--in-memory', '--nodes', '2', '--log-level', 'warn'], 60_000);
  const kubectl = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'kube-cache'));
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(args, input === undefined ? {} : { input });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  try {
    const refused = await kubectl(['apply', '-f', '-'], { input: manualExample('    names:\n    - node-1\n    - node-2\n    matchLabels:\n      node-type: xxx') });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /spec\.selector.*can not set both names and labelSelector/);
    // a job created before any NodeImage exists completes at once with desired 0, as upstream's does
    const deadline = Date.now() + 90_000;
    while ((await ok(['get', 'nodeimages', '--no-headers', '--ignore-not-found'])).trim().split('\n').filter(Boolean).length < 2) {
      assert.ok(Date.now() < deadline, 'NodeImages within 90 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const name of ['secret-name1', 'secret-name2']) {
      await ok(['create', 'secret', 'docker-registry', name, '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=p']);
    }
    assert.equal(await ok(['apply', '-f', '-'], manualExample('    names:\n    - kruise-node-0\n    - kruise-node-1')), 'imagepulljob.apps.kruise.io/job-with-always created\n');
    const waited = await kubectl(['wait', '--for=jsonpath={.status.succeeded}=2', 'imagepulljob/job-with-always', '--timeout=100s'], { timeoutMs: 110_000 });
    assert.equal(waited.code, 0, waited.stderr);
    const [header, row] = (await ok(['get', 'imagepulljob', 'job-with-always'])).trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(header, ['NAME', 'TOTAL', 'ACTIVE', 'SUCCEED', 'FAILED', 'AGE']);
    assert.deepEqual(row!.slice(0, 5), ['job-with-always', '2', '0', '2', '0']);
    const job = JSON.parse(await ok(['get', 'imagepulljob', 'job-with-always', '-o', 'json'])) as { status: { message: string; completionTime?: string } };
    assert.equal(job.status.message, 'job has completed');
    const ni = JSON.parse(await ok(['get', 'nodeimage', 'kruise-node-0', '-o', 'json'])) as { status: { imageStatuses: Record<string, { tags: { tag: string; phase: string }[] }> } };
    assert.deepEqual(ni.status.imageStatuses.nginx!.tags.map((t) => [t.tag, t.phase]), [['1.9.1', 'Succeeded']]);
    const copies = JSON.parse(await ok(['get', 'secrets', '-n', 'kruise-daemon-config', '-o', 'json'])) as { items: { metadata: { name: string } }[] };
    assert.deepEqual(copies.items.filter((s) => s.metadata.name.startsWith('secret-name')), [], 'secret copies released after completion');
  } finally {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  }
});
