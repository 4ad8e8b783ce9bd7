/**
 * `kubectl kruise set env|resources`, `--dry-run`, `-o` and `--record` through the real kubectl 1.32
 * plugin mechanism (docs/design/manager.md §12), each step run side by side with kubectl's own command
 * on a Deployment of the same shape: the same lines, exit codes and resulting containers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedDaemonSets, AdvancedStatefulSets } from '../../api/kruise/resource-types.js';
import { ConfigMaps, Deployments } from '../../api/resource-type.js';
import { pluginKubectl } from '../../testing/kubectl-plugin.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { cloneSet, CloneSets, eventually, IMG1, IMG2, ns } from './fixtures.js';

let w: WorkloadEnv;
let k: ReturnType<typeof pluginKubectl>;
before(async () => {
  w = await startWorkloadEnv({ nodes: 1, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
  k = pluginKubectl(w.env.kubeconfig);
  await w.client.create(CloneSets, cloneSet('twin', { replicas: 1 }));
  await w.client.create(Deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'twin', namespace: ns },
    spec: { replicas: 1, selector: { matchLabels: { app: 'twin' } }, template: { metadata: { labels: { app: 'twin' } }, spec: { containers: [{ name: 'web', image: IMG1 }] } } },
  });
  await w.client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: ns }, data: { 'log.level': 'debug' } });
});
after(() => w.stop());

/** What a user reads, with the kind's own spelling of the object's name folded away. */
const fold = (s: string) => s.replace(/cloneset\.apps\.kruise\.io\/|deployment\.apps\//g, 'K/').replace(/\b(CloneSet|Deployment)\b/g, 'Kind');
/** The env and resources of each kind's containers (the rest differs: Kruise defaults imagePullPolicy to Always). */
const containers = async () => {
  type Template = { spec?: unknown };
  const envAndResources = (o: Template) => (o.spec as { template: { spec: { containers: { env?: unknown; resources?: unknown }[] } } })
    .template.spec.containers.map((c) => ({ env: c.env, resources: c.resources }));
  return [envAndResources(await w.client.get(CloneSets, ns, 'twin') as Template), envAndResources(await w.client.get(Deployments, ns, 'twin') as Template)];
};
/** Runs `kubectl kruise <verb> clone/twin ...` and `kubectl <verb> deployment/twin ...`; both must read the same. */
async function same(verb: string[], ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const kruise = await k.run('kruise', ...verb, 'clone/twin', ...args);
  const kubectl = await k.run(...verb, 'deployment/twin', ...args);
  const shown = (r: typeof kruise) => ({ code: r.code, stdout: fold(r.stdout), stderr: fold(r.stderr) });
  assert.deepEqual(shown(kruise), shown(kubectl), `${verb.join(' ')} ${args.join(' ')}`);
  return shown(kruise);
}

test('set env reads and writes as kubectl set env does for a Deployment', async () => {
  assert.equal((await same(['set', 'env'], '-e', 'MODE=fast', 'TIER=web')).stdout, 'K/twin env updated\n');
  assert.equal((await same(['set', 'env'], 'MODE-')).stdout, 'K/twin env updated\n');
  assert.equal((await same(['set', 'env'], '--from=configmap/settings', '-c', 'web', '--prefix=APP_')).stdout, 'K/twin env updated\n');
  assert.equal((await same(['set', 'env'], '--list')).stdout, '# Kind twin, container web\nTIER=web\n# APP_LOG_LEVEL from configmap settings, key log.level\n');
  assert.deepEqual(await same(['set', 'env'], 'TIER=web'), { code: 0, stdout: '', stderr: '' }, 'no change: nothing written or printed');
  assert.equal((await same(['set', 'env'], 'DRY=1', '--dry-run=client')).stdout, 'K/twin env updated (dry run)\n');
  assert.equal((await same(['set', 'env'], 'DRY=1', '--dry-run=server')).stdout, 'K/twin env updated (server dry run)\n');
  assert.equal((await same(['set', 'env'], '-c', 'nope', 'A=1')).stderr, 'Warning: Kind/twin does not have any containers matching "nope"\n');
  assert.equal((await same(['set', 'env'], '--list', '-o', 'yaml')).stderr, 'error: --list and --output may not be specified together\n');
  assert.equal((await same(['set', 'env'], 'NAMED=1', '-o', 'name')).stdout, 'K/twin\n');
  const [clone, deployment] = await containers();
  assert.deepEqual(clone, deployment, 'the same container env after the same commands');
  const missing = await k.run('kruise', 'set', 'env', 'clone/ghost', 'A=1');
  assert.deepEqual([missing.code, missing.stderr], [1, 'Error from server (NotFound): clonesets.apps.kruise.io "ghost" not found\n']);
});

test('set resources, and its errors, as kubectl\'s', async () => {
  assert.equal((await same(['set', 'resources'], '--limits=cpu=200m,memory=512Mi', '--requests=cpu=0.1')).stdout, 'K/twin resource requirements updated\n');
  assert.equal((await same(['set', 'resources'], '--limits=cpu=200m')).stdout, '', 'no change: nothing printed');
  assert.equal((await same(['set', 'resources'], '-c', 'web', '--requests=memory=256Mi', '--dry-run=server', '-o', 'name')).stdout, 'K/twin\n');
  assert.equal((await same(['set', 'resources'])).stderr, 'error: you must specify an update to requests or limits (in the form of --requests/--limits)\n');
  assert.equal((await same(['set', 'resources'], '-c', 'nope', '--limits=cpu=1')).stderr, 'error: unable to find container named nope\n');
  assert.equal((await same(['set', 'resources'], '--limits=cpu=lots')).code, 1);
  const [clone, deployment] = await containers();
  assert.deepEqual(clone, deployment);
  assert.deepEqual(clone[0]!.resources, { limits: { cpu: '200m', memory: '512Mi' }, requests: { cpu: '100m' } });
});

test('--record names the command in the change cause rollout history lists; scale --dry-run=server writes nothing', async () => {
  const kruise = await k.run('kruise', 'set', 'image', 'clone/twin', `web=${IMG2}`, '--record');
  assert.deepEqual([kruise.code, kruise.stdout, kruise.stderr], [0, 'cloneset.apps.kruise.io/twin image updated\n', 'Flag --record has been deprecated, --record will be removed in the future\n']);
  const history = await eventually('the recorded revision', async () => {
    const out = await k.ok('kruise', 'rollout', 'history', 'clone/twin');
    return out.includes('--record=true') ? out : undefined;
  });
  assert.match(history, new RegExp(`\n\\d+ +kubectl-kruise set image clone/twin web=${IMG2.replace(/\./g, '\\.')} --record=true\n`));
  assert.equal(await k.ok('kruise', 'scale', 'clone/twin', '--replicas=4', '--dry-run=server'), 'cloneset.apps.kruise.io/twin scaled (server dry run)\n');
  const printed = JSON.parse(await k.ok('kruise', 'scale', 'clone/twin', '--replicas=5', '--dry-run=client', '-o', 'json')) as { spec: { replicas: number } };
  assert.equal(printed.spec.replicas, 5);
  assert.equal(((await w.client.get(CloneSets, ns, 'twin')).spec as { replicas: number }).replicas, 1, 'neither dry run wrote');
  const bad = await k.run('kruise', 'scale', 'clone/twin', '--replicas=2', '--dry-run=maybe');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /Invalid dry-run value \(maybe\)\. Must be "none", "server", or "client"\./);
});

test('set env and set resources on an Advanced StatefulSet and an Advanced DaemonSet', async () => {
  const template = { metadata: { labels: { app: 'adv' } }, spec: { containers: [{ name: 'web', image: IMG1 }] } };
  const common = { selector: { matchLabels: { app: 'adv' } }, template };
  await w.client.create(AdvancedStatefulSets, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'adv', namespace: ns }, spec: { replicas: 0, serviceName: 'adv', ...common } });
  await w.client.create(AdvancedDaemonSets, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'adv', namespace: ns }, spec: { ...common, template: { ...template, spec: { ...template.spec, nodeSelector: { none: 'x' } } } } });
  for (const [ref, display, type] of [['asts/adv', 'statefulset.apps.kruise.io/adv', AdvancedStatefulSets], ['ads/adv', 'daemonset.apps.kruise.io/adv', AdvancedDaemonSets]] as const) {
    assert.equal(await k.ok('kruise', 'set', 'env', ref, 'MODE=fast'), `${display} env updated\n`);
    assert.equal(await k.ok('kruise', 'set', 'resources', ref, '--limits=memory=1Gi'), `${display} resource requirements updated\n`);
    const c = ((await w.client.get(type, ns, 'adv')) as { spec?: unknown }).spec as { template: { spec: { containers: { env: unknown; resources: unknown }[] } } };
    assert.deepEqual([c.template.spec.containers[0]!.env, c.template.spec.containers[0]!.resources], [[{ name: 'MODE', value: 'fast' }], { limits: { memory: '1Gi' } }]);
  }
});
