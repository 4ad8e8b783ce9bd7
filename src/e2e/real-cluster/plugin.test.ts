/**
 * kubectl-kruise on a REAL kube-apiserver v1.32 with the Kruise manager out of process
 * (docs/design/manager.md §12): set image, rollout undo, scale and set env through kubectl's plugin
 * mechanism on a CloneSet, and kubectl's own commands on a Deployment of the same shape (run by the
 * real kube-controller-manager) — the same history after undo, the same container env. Skipped,
 * with the reason, when the binaries are not cached.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pluginKubectl } from '../../testing/kubectl-plugin.js';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { startRealKruise, type RealKruise } from '../../testing/real-kruise.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>; // any: kubectl's JSON output, read field by field

const availability = realControlPlaneAvailable();
const [IMG1, IMG2] = ['nginx:1.25-alpine', 'nginx:1.26-alpine'];
const spec = { replicas: 1, selector: { matchLabels: { app: 'twin' } }, template: { metadata: { labels: { app: 'twin' } }, spec: { containers: [{ name: 'web', image: IMG1 }] } } };

describe('kubectl kruise on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 300_000 }, () => {
  let k: RealKruise | undefined;
  let run: ReturnType<typeof pluginKubectl>;
  before(async () => {
    k = await startRealKruise({ name: 'kruise-real-plugin', nodes: { count: 1, prefix: 'psim-' } });
    run = pluginKubectl(k.real.kubeconfig);
    await k.apply({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'twin', namespace: 'default' }, spec });
    await k.apply({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'twin', namespace: 'default' }, spec });
  });
  after(async () => { await k?.stop(); });

  const fold = (s: string) => s.replace(/cloneset\.apps\.kruise\.io\/|deployment\.apps\//g, 'K/');
  /** Both kinds' `rollout history` once it lists `revisions` rows. */
  const histories = (revisions: number) => eventually(`${revisions} revisions listed`, async () => {
    const out = [await run.ok('kruise', 'rollout', 'history', 'clone/twin'), await run.ok('rollout', 'history', 'deployment/twin')].map(fold);
    return out.every((h) => h.trimEnd().split('\n').length === 2 + revisions) ? out : undefined;
  }, 60_000);
  const ready = (image: string, replicas: number) => eventually(`both on ${image} with ${replicas} ready`, async () => {
    const [cs, d] = [await k!.json(['get', 'clone', 'twin']), await k!.json(['get', 'deployment', 'twin'])];
    return [cs, d].every((o) => o.spec.template.spec.containers[0].image === image && o.status?.readyReplicas === replicas
      && o.status?.observedGeneration === o.metadata.generation && (o.status?.updatedReplicas ?? 0) === replicas) ? [cs, d] : undefined;
  }, 90_000);

  test('set image then rollout undo leave the same history as kubectl\'s for a Deployment', async () => {
    await ready(IMG1, 1);
    assert.equal(await run.ok('kruise', 'set', 'image', 'clone/twin', `web=${IMG2}`), 'cloneset.apps.kruise.io/twin image updated\n');
    assert.equal(await run.ok('set', 'image', 'deployment/twin', `web=${IMG2}`), 'deployment.apps/twin image updated\n');
    await ready(IMG2, 1);
    const [clone, deployment] = await histories(2);
    assert.equal(clone, deployment);
    assert.equal(fold(await run.ok('kruise', 'rollout', 'undo', 'clone/twin')), fold(await run.ok('rollout', 'undo', 'deployment/twin')));
    await ready(IMG1, 1);
    const [afterUndo, deploymentAfterUndo] = await histories(2);
    assert.equal(afterUndo, deploymentAfterUndo, 'the undone revision renumbered as the newest, as kubectl shows it');
    assert.equal(afterUndo, 'K/twin \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');
  });

  test('scale and set env give both kinds the same replicas and container env', async () => {
    assert.equal(fold(await run.ok('kruise', 'scale', 'clone/twin', '--replicas=2')), fold(await run.ok('scale', 'deployment/twin', '--replicas=2')));
    await ready(IMG1, 2);
    await k!.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { LEVEL: 'debug' } });
    for (const args of [['-e', 'MODE=fast', 'TIER=web'], ['MODE-'], ['--from=configmap/settings']]) {
      assert.equal(fold(await run.ok('kruise', 'set', 'env', 'clone/twin', ...args)), fold(await run.ok('set', 'env', 'deployment/twin', ...args)));
    }
    const dry = await run.ok('kruise', 'set', 'env', 'clone/twin', 'DRY=1', '--dry-run=server');
    assert.equal(dry, 'cloneset.apps.kruise.io/twin env updated (server dry run)\n');
    const env = async (kind: string) => (await k!.json(['get', kind, 'twin'])).spec.template.spec.containers[0].env as Obj[];
    assert.deepEqual(await env('clone'), await env('deployment'));
    assert.deepEqual(await env('clone'), [{ name: 'TIER', value: 'web' }, { name: 'LEVEL', valueFrom: { configMapKeyRef: { key: 'LEVEL', name: 'settings' } } }]);
    const missing = await run.run('kruise', 'scale', 'clone/ghost', '--replicas=1');
    assert.deepEqual([missing.code, missing.stderr], [1, 'Error from server (NotFound): clonesets.apps.kruise.io "ghost" not found\n']);
  });
});
