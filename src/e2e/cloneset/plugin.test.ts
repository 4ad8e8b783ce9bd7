/**
 * kubectl-kruise's workload commands through the real kubectl 1.32 plugin mechanism (docs/design/manager.md
 * §10): set image, rollout pause/resume/restart/history/undo, scale and scaledown on a CloneSet, each
 * compared with what a user then observes (template, status, pods) and, for history and undo, with
 * what kubectl itself does for a Deployment.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Deployments } from '../../api/resource-type.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { pluginKubectl } from '../../testing/kubectl-plugin.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { cloneSet, CloneSets, eventually, getCloneSet, IMG1, IMG2, livePods, ns, statusWhere } from './fixtures.js';

let w: WorkloadEnv;

before(async () => {
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
});
after(() => w.stop());

const kubectl = (...args: string[]) => pluginKubectl(w.env.kubeconfig).run(...args);
const ok = (...args: string[]) => pluginKubectl(w.env.kubeconfig).ok(...args);
const image = async () => ((await getCloneSet(w.client, 'tools')).spec!.template as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image;
const settledOn = (img: string) => statusWhere(w.client, 'tools', `all pods on ${img}`, (cs, pods) =>
  cs.status?.updatedReadyReplicas === cs.spec?.replicas && cs.status?.currentRevision === cs.status?.updateRevision
  && pods.length === cs.spec?.replicas && pods.every((p) => p.spec?.containers[0]?.image === img));

test('set image, pause and resume, restart, history and undo, scale and scaledown', async () => {
  await w.client.create(CloneSets, cloneSet('tools', { replicas: 2, updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } } }));
  await settledOn(IMG1);

  assert.equal(await ok('kruise', 'rollout', 'pause', 'clone/tools'), 'cloneset.apps.kruise.io/tools paused\n');
  const again = await kubectl('kruise', 'rollout', 'pause', 'clone/tools');
  assert.deepEqual([again.code, again.stderr], [1, 'error: clonesets.apps.kruise.io "tools" is already paused\n']);
  assert.equal(await ok('kruise', 'set', 'image', 'clone/tools', `web=${IMG2}`), 'cloneset.apps.kruise.io/tools image updated\n');
  assert.equal(await image(), IMG2);
  await statusWhere(w.client, 'tools', 'paused: nothing updated', (cs) => cs.status?.updatedReplicas === 0);
  assert.equal(await ok('kruise', 'rollout', 'resume', 'clone/tools'), 'cloneset.apps.kruise.io/tools resumed\n');
  await settledOn(IMG2);
  const missing = await kubectl('kruise', 'set', 'image', 'clone/tools', 'nope=busybox');
  assert.deepEqual([missing.code, missing.stderr], [1, 'error: unable to find container named "nope"\n']);

  assert.equal(await ok('kruise', 'rollout', 'history', 'clone/tools'), 'cloneset.apps.kruise.io/tools \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
  assert.equal(await ok('kruise', 'rollout', 'undo', 'clone/tools'), 'cloneset.apps.kruise.io/tools rolled back\n');
  await settledOn(IMG1);
  assert.equal(await ok('kruise', 'rollout', 'undo', 'clone/tools', '--to-revision', '3'), 'cloneset.apps.kruise.io/tools skipped rollback (current template already matches revision 3)\n');

  const before = (await livePods(w.client, 'tools')).map((p) => p.metadata.uid);
  assert.equal(await ok('kruise', 'rollout', 'restart', 'clone/tools'), 'cloneset.apps.kruise.io/tools restarted\n');
  await eventually('restartedAt on the pods', async () =>
    (await livePods(w.client, 'tools')).every((p) => p.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']));
  assert.deepEqual((await livePods(w.client, 'tools')).map((p) => p.metadata.uid), before, 'an annotation-only change is applied in place');

  assert.equal(await ok('kruise', 'scale', 'clone/tools', '--replicas', '3'), 'cloneset.apps.kruise.io/tools scaled\n');
  const three = await eventually('3 pods', async () => { const p = await livePods(w.client, 'tools'); return p.length === 3 ? p : undefined; });
  const victims = three.slice(0, 2).map((p) => p.metadata.name!);
  assert.equal(await ok('kruise', 'scaledown', 'clone/tools', '--pods', victims.join(',')),
    `# tools delete pods [${victims.join(' ')}] successfully\ncloneset.apps.kruise.io/tools selective pod deletion\n`);
  const left = await eventually('1 pod left, not a victim', async () => { const p = await livePods(w.client, 'tools'); return p.length === 1 ? p : undefined; });
  assert.ok(!victims.includes(left[0]!.metadata.name!));
  assert.equal((await getCloneSet(w.client, 'tools')).spec?.replicas, 1);
});

test('history and undo read as kubectl\'s do for a Deployment', async () => {
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep', namespace: ns },
    spec: { replicas: 1, selector: { matchLabels: { app: 'dep' } }, template: { metadata: { labels: { app: 'dep' } }, spec: { containers: [{ name: 'web', image: IMG1 }] } } },
  };
  await w.client.create(Deployments, deployment);
  await ok('set', 'image', 'deployment/dep', `web=${IMG2}`);
  const history = await eventually('two ReplicaSets', async () => {
    const out = await ok('rollout', 'history', 'deployment/dep');
    return out.includes('\n2 ') ? out : undefined;
  });
  assert.equal(history.replace('deployment.apps/dep', 'X'), 'X \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
  assert.equal(await ok('rollout', 'undo', 'deployment/dep'), 'deployment.apps/dep rolled back\n');
});
