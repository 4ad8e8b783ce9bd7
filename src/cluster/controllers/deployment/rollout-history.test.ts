/**
 * Revisions as real kubectl sees them: `rollout history` lists the ReplicaSets' revisions and
 * change causes, `rollout undo` (kubectl copies the old template back) makes the old ReplicaSet the
 * newest revision, and revisionHistoryLimit prunes the oldest scaled-down ReplicaSets.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Deployments, ReplicaSets } from '../../../api/resource-type.js';
import { startTestControlPlane } from '../../../testing/control-plane.js';
import type { ControllerTestEnv } from '../../../testing/controller-env.js';
import { deploymentOf, ns, rolledOut, startDeploymentCluster } from './test-kit.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

const changeCause = 'kubernetes.io/change-cause';

describe('Deployment revisions with kubectl', () => {
  let env: ControllerTestEnv;
  before(async () => { env = await startDeploymentCluster(await startTestControlPlane()); });
  after(async () => { await env.stop(); });

  const kubectl = async (...args: string[]) => {
    const r = await env.cp.kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const setImage = (image: string, cause: string) => env.client.patch(Deployments, ns, 'hist', 'strategic', {
    metadata: { annotations: { [changeCause]: cause } },
    spec: { template: { spec: { containers: [{ name: 'main', image }] } } },
  });
  const revisions = async () => {
    const list = (await env.client.list<ReplicaSet>(ReplicaSets, { namespace: ns, labelSelector: 'app=hist' })).items;
    const image = (rs: ReplicaSet) => (rs.spec?.template?.spec?.containers as { image: string }[])[0].image;
    return Object.fromEntries(list.map((rs) => [image(rs), rs.metadata.annotations?.['deployment.kubernetes.io/revision']]));
  };
  const history = async () => (await kubectl('rollout', 'history', 'deploy/hist')).split('\n').slice(2).map((l) => l.trim().split(/\s{2,}/)).filter((l) => l[0]);

  test('history lists every revision with its change cause', async () => {
    const d = deploymentOf('hist', 2, 'app:v1');
    d.metadata.annotations = { [changeCause]: 'first' };
    await env.client.create(Deployments, d);
    await rolledOut(env, 'hist', 2);
    await setImage('app:v2', 'second');
    await rolledOut(env, 'hist', 2);
    assert.deepEqual(await revisions(), { 'app:v1': '1', 'app:v2': '2' });
    assert.deepEqual(await history(), [['1', 'first'], ['2', 'second']]);
    const current = await env.client.get<Deployment>(Deployments, ns, 'hist');
    assert.equal(current.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
  });

  test('rollout undo brings the previous template back as a new revision', async () => {
    assert.match(await kubectl('rollout', 'undo', 'deploy/hist'), /deployment.apps\/hist rolled back/);
    const state = await rolledOut(env, 'hist', 2);
    assert.deepEqual(state.byImage, { 'app:v1': { total: 2, ready: 2 } });
    assert.deepEqual(await revisions(), { 'app:v1': '3', 'app:v2': '2' });
    const rs = (await env.client.list<ReplicaSet>(ReplicaSets, { namespace: ns, labelSelector: 'app=hist' })).items;
    assert.equal(rs.find((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3')?.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.deepEqual(await history(), [['2', 'second'], ['3', 'first']]);
    assert.match(await kubectl('rollout', 'status', 'deploy/hist', '--timeout=10s'), /successfully rolled out/);
  });

  test('undo to a given revision, and no-op undo to the current one', async () => {
    assert.match(await kubectl('rollout', 'undo', 'deploy/hist', '--to-revision=2'), /rolled back/);
    const state = await rolledOut(env, 'hist', 2);
    assert.deepEqual(Object.keys(state.byImage), ['app:v2']);
    assert.deepEqual(await revisions(), { 'app:v1': '3', 'app:v2': '4' });
    assert.match(await kubectl('rollout', 'undo', 'deploy/hist', '--to-revision=4'), /skipped rollback \(current template already matches revision 4\)/);
  });

  test('revisionHistoryLimit keeps only that many old ReplicaSets', async () => {
    await env.client.patch(Deployments, ns, 'hist', 'merge', { spec: { revisionHistoryLimit: 1 } });
    await setImage('app:v5', 'fifth');
    await rolledOut(env, 'hist', 2);
    await setImage('app:v6', 'sixth');
    await rolledOut(env, 'hist', 2);
    const left = async () => JSON.stringify(await revisions());
    for (let i = 0; i < 100 && (await left()) !== JSON.stringify({ 'app:v5': '5', 'app:v6': '6' }); i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await revisions(), { 'app:v5': '5', 'app:v6': '6' });
    assert.deepEqual(await history(), [['5', 'fifth'], ['6', 'sixth']]);
  });
});
