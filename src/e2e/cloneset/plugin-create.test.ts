/**
 * `kubectl kruise create ContainerRecreateRequest`, `expose` and `migrate CloneSet --from Deployment`
 * through the real kubectl 1.32 plugin mechanism (docs/design/manager.md §12): the objects a user then
 * finds, `expose` compared with `kubectl expose deployment`, and migrate's lines and end state.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import { Deployments, Services } from '../../api/resource-type.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { pluginKubectl } from '../../testing/kubectl-plugin.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { cloneSet, CloneSets, eventually, IMG1, livePods, ns } from './fixtures.js';

type Obj = KObject & Record<string, any>; // any: objects read field by field

let w: WorkloadEnv;
let k: ReturnType<typeof pluginKubectl>;
before(async () => {
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
  k = pluginKubectl(w.env.kubeconfig);
});
after(() => w.stop());

const deployment = (name: string, replicas: number, ports: { containerPort: number }[] = []) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns, labels: { team: 'shop' } },
  spec: {
    replicas, selector: { matchLabels: { app: name } }, strategy: { rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: IMG1, ports }] } },
  },
});

test('create ContainerRecreateRequest names the pod\'s containers, with kruise-tools\' defaults', async () => {
  await w.client.create(CloneSets, cloneSet('crr', { replicas: 1 }, { containers: [{ name: 'web', image: IMG1, ports: [{ containerPort: 80 }] }, { name: 'side', image: IMG1 }] }));
  const [pod] = await eventually('a pod', async () => { const p = await livePods(w.client, 'crr'); return p.length === 1 ? p : undefined; });
  assert.equal(await k.ok('kruise', 'create', 'ContainerRecreateRequest', 'again', '--pod', pod!.metadata.name!, '--containers', 'web'),
    'containerrecreaterequest.apps.kruise.io/again created\n');
  const crr = await w.client.get<Obj>(ContainerRecreateRequests, ns, 'again');
  assert.equal(crr.spec.podName, pod!.metadata.name);
  assert.deepEqual(crr.spec.containers.map((c: Obj) => c.name), ['web']);
  assert.deepEqual([crr.spec.strategy.failurePolicy, crr.spec.strategy.unreadyGracePeriodSeconds, crr.spec.strategy.minStartedSeconds, crr.spec.activeDeadlineSeconds, crr.spec.ttlSecondsAfterFinished], ['Fail', 3, 3, 300, 1800]);
  assert.equal(await k.ok('kruise', 'create', 'crr', 'all', '-p', pod!.metadata.name!, '-o', 'name'), 'containerrecreaterequest.apps.kruise.io/all\n');
  assert.deepEqual((await w.client.get<Obj>(ContainerRecreateRequests, ns, 'all')).spec.containers.map((c: Obj) => c.name), ['web', 'side']);
  const dry = await k.ok('kruise', 'create', 'containerrecreaterequest', 'dry', '-p', pod!.metadata.name!, '--dry-run=server');
  assert.equal(dry, 'containerrecreaterequest.apps.kruise.io/dry created (server dry run)\n');
  const unknown = await k.run('kruise', 'create', 'crr', 'x', '-p', pod!.metadata.name!, '--containers', 'nope');
  assert.deepEqual([unknown.code, unknown.stderr], [1, 'error: has container not exist\n']);
  const noPod = await k.run('kruise', 'create', 'crr', 'x', '-p', 'ghost');
  assert.deepEqual([noPod.code, noPod.stderr], [1, 'error: pod ghost in namespace default not exist\n']);
});

test('expose makes the Service kubectl expose makes for a Deployment of the same shape', async () => {
  await w.client.create(CloneSets, { ...cloneSet('shop', { replicas: 0 }, { containers: [{ name: 'web', image: IMG1, ports: [{ containerPort: 8080 }] }] }), metadata: { name: 'shop', namespace: ns, labels: { team: 'shop' } } });
  await w.client.create(Deployments, deployment('shop', 0, [{ containerPort: 8080 }]));
  const flags = ['--port=80', '--target-port=8080', '--type=NodePort'];
  assert.equal(await k.ok('kruise', 'expose', 'clone/shop', '--name=by-kruise', ...flags), 'service/by-kruise exposed\n');
  assert.equal(await k.ok('expose', 'deployment/shop', '--name=by-kubectl', ...flags), 'service/by-kubectl exposed\n');
  const shape = async (name: string) => {
    const s = await w.client.get<Obj>(Services, ns, name);
    return { labels: s.metadata.labels, selector: s.spec.selector, type: s.spec.type, ports: s.spec.ports.map(({ nodePort: _, ...p }: Obj) => p) };
  };
  assert.deepEqual(await shape('by-kruise'), await shape('by-kubectl'));
  assert.equal(await k.ok('kruise', 'expose', 'clone/shop'), 'service/shop exposed\n', 'the template\'s port, the workload\'s name');
  assert.deepEqual((await shape('shop')).ports, [{ port: 8080, protocol: 'TCP', targetPort: 8080 }]);
  const again = await k.run('kruise', 'expose', 'clone/shop');
  assert.deepEqual([again.code, again.stderr], [1, 'Error from server (AlreadyExists): services "shop" already exists\n']);
});

test('migrate CloneSet --from Deployment: --create copies the spec, then replicas move within --max-surge', async () => {
  await w.client.create(Deployments, deployment('move', 3));
  await eventually('3 deployment pods', async () => (await livePods(w.client, 'move')).length === 3);
  const noNs = await k.run('kruise', 'migrate', 'CloneSet', '--from', 'Deployment', '--src-name', 'move', '--create');
  assert.deepEqual([noNs.code, noNs.stderr], [1, 'error: must specify namespace by -n or --namespace\n']);
  assert.equal(await k.ok('kruise', 'migrate', 'CloneSet', '--from', 'Deployment', '-n', ns, '--src-name', 'move', '--create'), 'Successfully created from Deployment/move to CloneSet/move\n');
  const created = await w.client.get<Obj>(CloneSets, ns, 'move');
  assert.equal(created.spec.replicas, 0);
  assert.deepEqual(created.metadata.labels, { team: 'shop' });
  assert.deepEqual(created.spec.updateStrategy.rollingUpdate, { ...created.spec.updateStrategy.rollingUpdate, podUpdatePolicy: 'ReCreate', maxSurge: 2, maxUnavailable: 0 });

  const out = await k.ok('kruise', 'migrate', 'CloneSet', '--from', 'Deployment', '-n', ns, '--src-name', 'move', '--dst-name', 'move', '--max-surge', '2');
  const lines = out.trimEnd().split('\n');
  assert.equal(lines.at(-1), 'Successfully migrated 3 replicas from Deployment/move to CloneSet/move');
  for (const line of lines.slice(0, -1)) {
    const [, scaledIn, scaledOut] = /^Migration progress: Deployment\/move scale in (\d+), CloneSet\/move scale out (\d+)$/.exec(line)!.map(Number);
    assert.ok(scaledOut! - scaledIn! <= 2, `never more than --max-surge ahead: ${line}`);
  }
  assert.equal((await w.client.get<Obj>(Deployments, ns, 'move')).spec.replicas, 0);
  const cs = await w.client.get<Obj>(CloneSets, ns, 'move');
  assert.deepEqual([cs.spec.replicas, cs.status.availableReplicas], [3, 3]);
});
