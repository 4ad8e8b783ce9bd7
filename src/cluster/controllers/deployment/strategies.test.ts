/**
 * Recreate, pause/resume, scaling in the middle of a rollout and the progress deadline, on an
 * embedded control plane with the ReplicaSet and Deployment controllers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Deployments, Pods, ReplicaSets } from '../../../api/resource-type.js';
import { startTestControlPlane } from '../../../testing/control-plane.js';
import { eventually, type ControllerTestEnv } from '../../../testing/controller-env.js';
import { templateHash } from './replica-sets.js';
import { deploymentOf, ns, rolledOut, settle, startDeploymentCluster } from './test-kit.js';
import type { Deployment, Pod, ReplicaSet } from '../../../api/core/index.js';

const image = (p: Pod) => (p.spec?.containers as { image: string }[])[0].image;
const setImage = (img: string) => ({ spec: { template: { spec: { containers: [{ name: 'main', image: img }] } } } });

describe('Deployment strategies', () => {
  let env: ControllerTestEnv;
  before(async () => { env = await startDeploymentCluster(await startTestControlPlane()); });
  after(async () => { await env.stop(); });
  const progressing = async (name: string) => (await env.client.get<Deployment>(Deployments, ns, name)).status?.conditions?.find((c) => c.type === 'Progressing');

  test('Recreate removes every old pod before the first new one exists', async () => {
    await env.client.create(Deployments, deploymentOf('rec', 3, 'rec:1', { type: 'Recreate' }));
    await rolledOut(env, 'rec', 3);
    const live = new Map<string, string>();
    let overlap = false;
    const watch = env.client.watch<Pod>(Pods, { namespace: ns, labelSelector: 'app=rec' }, {
      onEvent: (ev) => {
        if (ev.type === 'DELETED') live.delete(ev.object.metadata.name!);
        else live.set(ev.object.metadata.name!, image(ev.object));
        if (new Set(live.values()).size > 1) overlap = true;
      },
      onClose: () => undefined,
    });
    try {
      await env.client.patch(Deployments, ns, 'rec', 'strategic', setImage('rec:2'));
      const state = await rolledOut(env, 'rec', 3);
      assert.deepEqual(state.byImage, { 'rec:2': { total: 3, ready: 3 } });
      assert.equal(overlap, false, 'old and new pods never coexisted');
    } finally {
      watch.stop();
    }
  });

  test('a paused deployment scales but does not roll out until resumed', async () => {
    await env.client.create(Deployments, deploymentOf('pz', 2, 'pz:1'));
    await rolledOut(env, 'pz', 2);
    assert.equal((await env.cp.kubectl(['rollout', 'pause', 'deploy/pz'])).code, 0);
    await eventually('paused condition', async () => (await progressing('pz'))?.reason === 'DeploymentPaused');
    assert.equal((await progressing('pz'))?.status, 'Unknown');
    await env.client.patch(Deployments, ns, 'pz', 'strategic', { spec: { replicas: 3, ...setImage('pz:2').spec } });
    await eventually('scaled while paused', async () => (await settle(env, 'pz')).pods === 3);
    await new Promise((r) => setTimeout(r, 300)); // give a (wrong) rollout time to start
    const state = await settle(env, 'pz');
    assert.deepEqual(state.byImage, { 'pz:1': { total: 3, ready: 2 } }, 'scaled, still the old template');
    assert.equal(state.replicaSets.length, 1, 'no new ReplicaSet while paused');
    const observed = await env.client.get<Deployment>(Deployments, ns, 'pz');
    assert.equal(observed.status?.observedGeneration, observed.metadata.generation, 'the new generation is observed');
    assert.equal((await env.cp.kubectl(['rollout', 'resume', 'deploy/pz'])).code, 0);
    const resumed = await rolledOut(env, 'pz', 3);
    assert.deepEqual(resumed.byImage, { 'pz:2': { total: 3, ready: 3 } });
    assert.equal((await progressing('pz'))?.reason, 'NewReplicaSetAvailable');
    assert.equal((await env.cp.kubectl(['rollout', 'pause', 'deploy/pz'])).code, 0);
    const undo = await env.cp.kubectl(['rollout', 'undo', 'deploy/pz']);
    assert.match(undo.stderr, /you cannot rollback a paused deployment; resume it first/);
  });

  test('scaling mid-rollout spreads the change over old and new ReplicaSets', async () => {
    await env.client.create(Deployments, deploymentOf('mid', 4, 'mid:1', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } }));
    await rolledOut(env, 'mid', 4);
    await env.client.patch(Deployments, ns, 'mid', 'strategic', setImage('mid:2'));
    const during = await settle(env, 'mid'); // new pods never become ready: the rollout holds at 4 old + 2 new
    assert.deepEqual(during.replicaSets.map((r) => r.spec).sort(), [2, 4]);
    await env.client.patch(Deployments, ns, 'mid', 'merge', { spec: { replicas: 8 } });
    const scaled = await settle(env, 'mid');
    // 8 + 2 surge = 10 allowed, spread 4:2 by the max-replicas (6) both were sized for
    const sizes = Object.fromEntries(scaled.replicaSets.map((r) => [r.image, r.spec]));
    assert.deepEqual(sizes, { 'mid:1': 7, 'mid:2': 3 });
    const rs = (await env.client.list<ReplicaSet>(ReplicaSets, { namespace: ns, labelSelector: 'app=mid' })).items;
    for (const r of rs) {
      assert.equal(r.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '8');
      assert.equal(r.metadata.annotations?.['deployment.kubernetes.io/max-replicas'], '10');
    }
    assert.deepEqual((await rolledOut(env, 'mid', 8)).byImage, { 'mid:2': { total: 8, ready: 8 } });
  });

  test('a ReplicaSet name taken by a stranger is a hash collision: collisionCount goes up, the name changes', async () => {
    const d = deploymentOf('col', 1, 'col:1');
    d.spec!.paused = true; // nothing is created until the trap is set
    const stored = await env.client.create(Deployments, d);
    const taken = `col-${templateHash(stored)}`;
    await env.client.create<ReplicaSet>(ReplicaSets, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: taken, namespace: ns },
      spec: { replicas: 0, selector: { matchLabels: { app: 'stranger' } }, template: { metadata: { labels: { app: 'stranger' } }, spec: { containers: [{ name: 'c', image: 'other' }] } } },
    });
    await env.client.patch(Deployments, ns, 'col', 'merge', { spec: { paused: false } });
    const state = await rolledOut(env, 'col', 1);
    const current = await env.client.get<Deployment>(Deployments, ns, 'col');
    assert.equal(current.status?.collisionCount, 1);
    assert.deepEqual(state.replicaSets.map((r) => r.name), [`col-${templateHash(current)}`]);
    assert.notEqual(state.replicaSets[0].name, taken);
  });

  test('no progress within progressDeadlineSeconds fails the rollout', async () => {
    const d = deploymentOf('slow', 1, 'slow:1');
    d.spec!.progressDeadlineSeconds = 1;
    await env.client.create(Deployments, d);
    const cond = await eventually('deadline exceeded', async () => {
      const c = await progressing('slow');
      return c?.reason === 'ProgressDeadlineExceeded' ? c : undefined;
    }, 8000);
    assert.equal(cond.status, 'False');
    assert.match(cond.message ?? '', /^ReplicaSet "slow-[a-z0-9]+" has timed out progressing\.$/);
    const status = await env.cp.kubectl(['rollout', 'status', 'deploy/slow', '--timeout=5s']);
    assert.notEqual(status.code, 0);
    assert.match(status.stderr, /deployment "slow" exceeded its progress deadline/);
  });
});
