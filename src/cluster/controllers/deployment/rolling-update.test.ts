/**
 * Rolling updates on an embedded control plane: after every step (the controllers settled, then
 * the test makes one more new pod ready) the pod counts stay within maxSurge and maxUnavailable,
 * and `kubectl rollout status` tells the same story as the status fields.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Deployments } from '../../../api/resource-type.js';
import { isPodReady } from '../../../control/podutil/index.js';
import { startTestControlPlane } from '../../../testing/control-plane.js';
import { activePods, eventually, listPods, markPodReady, readyAllPods, type ControllerTestEnv } from '../../../testing/controller-env.js';
import { kubectlBinary } from '../../../testing/kubectl.js';
import { complete, deploymentOf, ns, rolledOut, settle, startDeploymentCluster, type ClusterState } from './test-kit.js';

describe('Deployment rolling update', () => {
  let env: ControllerTestEnv;
  before(async () => { env = await startDeploymentCluster(await startTestControlPlane()); });
  after(async () => { await env.stop(); });

  /** Rolls `app` to `image` one ready pod at a time; returns the settled states seen. */
  async function rollStepByStep(app: string, replicas: number, surge: number, unavailable: number, image: string): Promise<ClusterState[]> {
    await env.client.patch(Deployments, ns, app, 'strategic', { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } });
    const states: ClusterState[] = [];
    for (let step = 0; step < 4 * replicas + 4; step++) {
      const s = await settle(env, app);
      states.push(s);
      assert.ok(s.pods <= replicas + surge, `step ${step}: ${s.pods} pods, at most ${replicas + surge} allowed: ${JSON.stringify(s)}`);
      assert.ok(s.ready >= replicas - unavailable, `step ${step}: ${s.ready} ready, at least ${replicas - unavailable} needed: ${JSON.stringify(s)}`);
      if (complete(s, replicas) && s.pods === replicas) return states;
      const waiting = activePods(await listPods(env.client, ns, `app=${app}`)).filter((p) => !isPodReady(p));
      assert.ok(waiting.length > 0, `step ${step}: stuck with nothing to make ready: ${JSON.stringify(s)}`);
      await markPodReady(env.client, waiting[0]);
    }
    assert.fail('rollout did not finish');
  }

  test('maxSurge 1, maxUnavailable 1 over 4 replicas', async () => {
    await env.client.create(Deployments, deploymentOf('web', 4, 'nginx:1', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }));
    await settle(env, 'web');
    await readyAllPods(env.client, ns, 'app=web');
    const ready = await settle(env, 'web');
    assert.ok(complete(ready, 4));
    const first = await env.cp.kubectl(['rollout', 'status', 'deploy/web', '--timeout=10s']);
    assert.equal(first.stdout.trim(), 'deployment "web" successfully rolled out', first.stderr);

    const states = await rollStepByStep('web', 4, 1, 1, 'nginx:2');
    const newPods = states.map((s) => s.byImage['nginx:2']?.total ?? 0);
    assert.ok(states.length >= 4, `a gradual rollout, not one jump: ${JSON.stringify(newPods)}`);
    assert.deepEqual(newPods.slice(0, 2), [2, 3], 'surge 1 plus 1 unavailable: 2 new pods first; each ready pod lets one more in');
    const final = states.at(-1)!;
    assert.deepEqual(final.byImage, { 'nginx:2': { total: 4, ready: 4 } });
    const byImage = final.replicaSets.map((r) => [r.image, r.spec, r.revision]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    assert.deepEqual(byImage, [['nginx:1', 0, '1'], ['nginx:2', 4, '2']]);
    if (process.env.TEST_LOG) console.log(JSON.stringify(states.map((s) => s.byImage)));
    const done = await env.cp.kubectl(['rollout', 'status', 'deploy/web', '--timeout=10s']);
    assert.equal(done.stdout.trim(), 'deployment "web" successfully rolled out', done.stderr);
  });

  test('maxSurge 0, maxUnavailable 1: old pods go before new ones come', async () => {
    await env.client.create(Deployments, deploymentOf('api', 3, 'api:1', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }));
    await settle(env, 'api');
    await readyAllPods(env.client, ns, 'app=api');
    await settle(env, 'api');
    const states = await rollStepByStep('api', 3, 0, 1, 'api:2');
    assert.ok(states.every((s) => s.pods <= 3));
    assert.deepEqual(states.map((s) => s.byImage['api:2']?.total ?? 0), [1, 2, 3, 3]);
  });

  test('kubectl rollout status reports a rollout in progress', async () => {
    await env.client.patch(Deployments, ns, 'web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:3' }] } } } });
    await settle(env, 'web');
    const progress = await env.cp.kubectl(['rollout', 'status', 'deploy/web', '--watch=false']);
    assert.equal(progress.stdout.trim(), 'Waiting for deployment "web" rollout to finish: 2 out of 4 new replicas have been updated...', progress.stderr);
    // Stream kubectl's output: pods turn ready only once it is watching, so it must see the progress.
    const child = spawn(kubectlBinary(), ['--kubeconfig', env.cp.kubeconfig, '--cache-dir', `${env.cp.dir}/kube-cache`, 'rollout', 'status', 'deploy/web', '--timeout=20s']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    await eventually('kubectl to report progress', () => out.includes('Waiting for deployment "web" rollout to finish'));
    await rolledOut(env, 'web', 4);
    assert.equal(await exited, 0);
    assert.match(out, /^Waiting for deployment "web" rollout to finish: 2 out of 4 new replicas have been updated...\n[\s\S]*deployment "web" successfully rolled out\n$/);
  });
});
