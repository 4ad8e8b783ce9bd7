import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { mergeKruiseContext, userKubeconfigPath } from './merge-kubeconfig.js';
import { upSummary } from './up-summary.js';

const base = {
  url: 'https://127.0.0.1:6443', startedMs: 912, kubeconfigPath: '/home/u/.kruise/kubeconfig', nodeNames: ['kruise-node-0', 'kruise-node-1'],
  daemons: true, manager: true, gateLines: ['kruise feature gates on: KruiseDaemon, PodWebhook', 'warning: feature gate X is on but has no effect here yet (missing: x)'],
  dataDir: '/home/u/.kruise', inMemory: false,
};

test('the summary kruise up prints (golden)', () => {
  assert.deepEqual(upSummary(base), [
    'kruise control plane ready at https://127.0.0.1:6443 in 912 ms with 2 simulated nodes',
    '  kubeconfig: /home/u/.kruise/kubeconfig',
    '    export KUBECONFIG=/home/u/.kruise/kubeconfig',
    '  nodes: kruise-node-0, kruise-node-1 (a kruise-daemon on each)',
    '  kruise feature gates on: KruiseDaemon, PodWebhook',
    '  warning: feature gate X is on but has no effect here yet (missing: x)',
    '  store: /home/u/.kruise (start again with the same --data-dir to resume); Ctrl-C stops',
  ]);
  assert.deepEqual(upSummary({ ...base, mergedInto: '/home/u/.kube/config', manager: false, daemons: false, inMemory: true }).slice(1), [
    '  kubeconfig: context "kruise" merged into /home/u/.kube/config; use it with: kubectl config use-context kruise',
    '  nodes: kruise-node-0, kruise-node-1',
    '  no Kruise manager in this process (--no-kruise-manager): attach one with `kruise manager --kubeconfig /home/u/.kruise/kubeconfig`',
    '  store: in memory (nothing survives a restart); Ctrl-C stops',
  ]);
  assert.deepEqual(upSummary({ ...base, dashboardUrl: 'https://127.0.0.1:6443/dashboard/' })[4], "  dashboard: https://127.0.0.1:6443/dashboard/ (sign in with the kubeconfig's token; read-only)");
  assert.deepEqual(upSummary({ ...base, dashboardUrl: 'https://127.0.0.1:6443/dashboard/', dashboardActions: true })[4], "  dashboard: https://127.0.0.1:6443/dashboard/ (sign in with the kubeconfig's token; actions on)");
});

test('--update-kubeconfig merges the kruise entries, keeps the others, makes kruise current, owner-only', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-kc-'));
  try {
    const plane = path.join(dir, 'plane');
    await writeFile(plane, stringify({
      apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'kruise', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'kruise-admin', user: { token: 't' } }], contexts: [{ name: 'kruise', context: { cluster: 'kruise', user: 'kruise-admin' } }], 'current-context': 'kruise',
    }));
    const mine = path.join(dir, 'kube', 'config');
    assert.equal(userKubeconfigPath({ KUBECONFIG: `${mine}${path.delimiter}/other`, HOME: '/nowhere' }), mine);
    assert.equal(userKubeconfigPath({ HOME: dir }), path.join(dir, '.kube', 'config'));
    await mergeKruiseContext(plane, mine); // no file yet
    await writeFile(mine, stringify({ ...parse(await readFile(mine, 'utf8')), clusters: [{ name: 'prod', cluster: { server: 'https://prod' } }, { name: 'kruise', cluster: { server: 'https://old' } }], 'current-context': 'prod' }));
    await mergeKruiseContext(plane, mine);
    const merged = parse(await readFile(mine, 'utf8')) as { clusters: { name: string; cluster: { server: string } }[]; 'current-context': string; contexts: { name: string }[] };
    assert.deepEqual(merged.clusters.map((c) => [c.name, c.cluster.server]), [['prod', 'https://prod'], ['kruise', 'https://127.0.0.1:1']]);
    assert.equal(merged['current-context'], 'kruise');
    assert.deepEqual(merged.contexts.map((c) => c.name), ['kruise']);
    assert.equal((await stat(mine)).mode & 0o777, 0o600);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
