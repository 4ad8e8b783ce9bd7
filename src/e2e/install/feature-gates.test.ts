/**
 * `kruise up --feature-gates AllAlpha=true,AllBeta=true`, upstream's CI setting (docs/design/feature-gates.md §4):
 * the plane starts, lists the gates that take effect, warns once per gate that does nothing here,
 * and a gate it lists as on is felt: a CloneSet applied with the real kubectl gets CloneSetShortHash's
 * bare revision hash on its pod.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kubectlFor } from '../../testing/kubectl.js';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';
import { eventually } from '../../testing/workload-env.js';

const cloneSet = `
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: sample, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: sample}}
  template:
    metadata: {labels: {app: sample}}
    spec: {containers: [{name: nginx, image: nginx:alpine}]}
`;

describe('kruise up with every alpha and beta gate on', () => {
  let dir: string;
  let up: UpProcess;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-gates-'));
    up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory', '--log-level', 'warn', '--feature-gates', 'AllAlpha=true,AllBeta=true'], 60_000);
  });
  after(async () => {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  });

  test('says which gates take effect and which do nothing, and the ones on are felt', async () => {
    // the summary may reach us in several chunks: wait for its last line
    await eventually('the whole summary', async () => /Ctrl-C stops/.test(up.output()) || undefined);
    const on = /^ *kruise feature gates on: (.*)$/m.exec(up.output())![1]!;
    assert.ok(on.split(', ').includes('CloneSetShortHash'));
    assert.ok(!on.split(', ').includes('EnhancedLivenessProbe'));
    assert.match(up.output(), /^ *warning: feature gate EnhancedLivenessProbe is on but has no effect here yet \(missing: enhanced liveness probes/m);
    const kubectl = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'kube-cache'));
    // the manager's webhooks may still be starting: apply is idempotent, so try until it lands
    await eventually('the CloneSet applied', async () => (await kubectl(['apply', '-f', '-'], { input: cloneSet })).code === 0, 30_000);
    const labels = await eventually('the CloneSet pod', async () => {
      const r = await kubectl(['get', 'pods', '-l', 'app=sample', '-o', 'json']);
      return (JSON.parse(r.stdout) as { items: { metadata: { labels: Record<string, string> } }[] }).items[0]?.metadata.labels;
    }, 30_000);
    const r = await kubectl(['get', 'clone', 'sample', '-o', 'jsonpath={.status.updateRevision}']);
    assert.equal(labels['controller-revision-hash'], r.stdout.slice(r.stdout.lastIndexOf('-') + 1));
  });
});
