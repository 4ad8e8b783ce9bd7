/**
 * `kubectl kruise rollout status clone/NAME`: the real kubectl 1.32 finds our kubectl-kruise plugin
 * on PATH and follows a CloneSet rollout to the end (kubectl's own `rollout status` knows only
 * the built-in kinds; we assert the error it gives, so users know to reach for the plugin).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { kubectlBinary } from '../../testing/kubectl.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';

const binDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin');
let w: WorkloadEnv;

before(async () => {
  // A pull delay keeps the rollout going long enough for kubectl to see it in progress.
  w = await startWorkloadEnv({ nodes: 2, pullDelayMs: 2_000, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
});
after(() => w.stop());

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(kubectlBinary(32), args, {
      env: { ...process.env, KUBECONFIG: w.env.kubeconfig, PATH: `${binDir}:${process.env.PATH ?? ''}` }, timeout: 60_000,
    }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const cloneSet = (image: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'status-demo', namespace: 'default' },
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'status-demo' } },
    template: { metadata: { labels: { app: 'status-demo' } }, spec: { containers: [{ name: 'web', image }] } },
  },
});
const updateRevision = async () => (await w.client.get<CloneSet>(CloneSets, 'default', 'status-demo')).status?.updateRevision;
const lastLine = (out: string) => out.trim().split('\n').at(-1);

test('kubectl kruise rollout status follows a CloneSet to the end of its rollout', async () => {
  await w.client.create(CloneSets, cloneSet('nginx:1.25-alpine'));
  const first = await kubectl(['kruise', 'rollout', 'status', 'clone/status-demo', '--timeout', '60s']);
  assert.equal(first.code, 0, first.stderr);
  const revision = await updateRevision();
  assert.equal(lastLine(first.stdout), `CloneSet rolling update complete 2 pods at revision ${revision}...`);

  await w.client.patch(CloneSets, 'default', 'status-demo', 'merge', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } });
  const rolled = await kubectl(['kruise', 'rollout', 'status', 'clone/status-demo', '--timeout', '60s']);
  assert.equal(rolled.code, 0, rolled.stderr);
  const next = await updateRevision();
  assert.notEqual(next, revision);
  assert.equal(lastLine(rolled.stdout), `CloneSet rolling update complete 2 pods at revision ${next}...`);
  assert.ok(rolled.stdout.split('\n').length > 2, `progress lines are printed while rolling:\n${rolled.stdout}`);

  const builtin = await kubectl(['rollout', 'status', 'clone/status-demo', '--timeout', '5s']);
  assert.notEqual(builtin.code, 0);
  assert.match(builtin.stderr, /no kind "CloneSet" is registered for version "apps\.kruise\.io\/v1beta1"/);

  const unknown = await kubectl(['kruise', 'rollout', 'status', 'widget/x']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^error: no status viewer has been implemented for "widget"/);
});
