/**
 * C9 (docs/design/cloneset.md §13): podsToDelete and specified-delete remove exactly the named pods, names
 * that match no pod are pruned from the spec; and a manager restart in the middle of a ReCreate
 * rollout deletes no pod beyond the budget (expectations live in memory, the cache is the truth).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { Pods } from '../../api/resource-type.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import type { Pod } from '../../api/core/index.js';

const ns = 'default';
let w: WorkloadEnv;

before(async () => {
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
});
after(() => w.stop());

const manifest = (name: string, replicas: number, rollingUpdate: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns },
  spec: {
    replicas, selector: { matchLabels: { app: name } }, updateStrategy: { rollingUpdate },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
  },
});
const get = (name: string) => w.client.get<CloneSet>(CloneSets, ns, name);
const livePods = async (app: string) =>
  (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
const names = async (app: string) => (await livePods(app)).map((p) => p.metadata.name!).sort();
const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

async function settled(name: string, replicas: number, timeoutMs = 30_000): Promise<CloneSet> {
  return eventually(`${name} settled at ${replicas}`, async () => {
    const cs = await get(name);
    const s = cs.status;
    const live = await livePods(name);
    return s && s.observedGeneration === cs.metadata.generation && s.replicas === replicas && s.updatedAvailableReplicas === replicas
      && s.currentRevision === s.updateRevision && live.length === replicas && live.every(isReady) ? cs : undefined;
  }, timeoutMs);
}

describe('C9: podsToDelete and specified-delete', () => {
  test('a listed pod is deleted with the scale-in, and podsToDelete is emptied', async () => {
    await w.client.create(CloneSets, manifest('c9', 4));
    await settled('c9', 4);
    const before = await names('c9');
    const victim = before[1]!;
    await w.client.patch(CloneSets, ns, 'c9', 'merge', { spec: { replicas: 3, scaleStrategy: { podsToDelete: [victim] } } });
    const cs = await eventually('victim gone and podsToDelete pruned', async () => {
      const got = await get('c9');
      return (await names('c9')).join() === before.filter((n) => n !== victim).join() && !got.spec?.scaleStrategy?.podsToDelete?.length ? got : undefined;
    }, 30_000);
    assert.equal(cs.spec?.scaleStrategy?.podsToDelete, undefined);
    await settled('c9', 3);
    assert.deepEqual(await names('c9'), before.filter((n) => n !== victim), 'no other pod was touched');
  });

  test('a pod labelled specified-delete is replaced by a pod with a new name', async () => {
    const before = await names('c9');
    const victim = before[0]!;
    await w.client.patch(Pods, ns, victim, 'merge', { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } });
    const after = await eventually('replacement', async () => {
      const now = await names('c9');
      return now.length === 3 && !now.includes(victim) ? now : undefined;
    }, 30_000);
    assert.deepEqual(after.filter((n) => n !== victim && !before.includes(n)).length, 1, 'exactly one new pod');
    assert.deepEqual(after.filter((n) => before.includes(n)), before.filter((n) => n !== victim));
    await settled('c9', 3);
  });

  test('a name that matches no pod is accepted, then pruned, and no pod is deleted', async () => {
    const before = await names('c9');
    await w.client.patch(CloneSets, ns, 'c9', 'merge', { spec: { scaleStrategy: { podsToDelete: ['c9-nosuch'] } } });
    assert.deepEqual((await get('c9')).spec?.scaleStrategy?.podsToDelete, ['c9-nosuch'], 'the v1beta1 webhook accepts it');
    await eventually('pruned', async () => !(await get('c9')).spec?.scaleStrategy?.podsToDelete?.length, 20_000);
    assert.deepEqual(await names('c9'), before);
  });
});

describe('restart mid-rollout', () => {
  test('a fresh manager continues a ReCreate rollout without exceeding maxUnavailable', async () => {
    await w.client.create(CloneSets, manifest('rs', 4, { maxUnavailable: 1 }));
    const first = await settled('rs', 4);
    const original = new Set(await names('rs'));
    await w.client.patch(CloneSets, ns, 'rs', 'merge', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } });
    let fewestReady = 4;
    let mostLive = 4;
    let restarts = 0;
    const done = await eventually('rolled across restarts', async () => {
      const live = await livePods('rs');
      fewestReady = Math.min(fewestReady, live.filter(isReady).length);
      mostLive = Math.max(mostLive, live.length);
      // restart while old pods remain, right after the controller acted on one
      if (restarts < 3 && live.some((p) => original.has(p.metadata.name!)) && live.some((p) => !original.has(p.metadata.name!))) {
        restarts++;
        await w.restartManager();
      }
      const cs = await get('rs');
      const s = cs.status;
      return s && s.updateRevision !== first.status!.updateRevision && s.currentRevision === s.updateRevision && s.updatedAvailableReplicas === 4
        && live.length === 4 && live.every((p) => !original.has(p.metadata.name!)) ? cs : undefined;
    }, 50_000);
    assert.ok(restarts >= 1, 'the manager was restarted during the rollout');
    assert.ok(fewestReady >= 3, `never fewer than 3 ready pods (saw ${fewestReady})`);
    assert.ok(mostLive <= 4, `never more than 4 live pods (saw ${mostLive})`);
    assert.equal(done.status!.replicas, 4);
  });
});
