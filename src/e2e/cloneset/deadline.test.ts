/**
 * C15, deadline part (docs/design/cloneset.md §11, §13): with progressDeadlineSeconds 10 and pods no
 * scheduler picks up, Progressing turns False (ProgressDeadlineExceeded) about 10 s after it went
 * True (CloneSetUpdated); fixing the scheduler name makes it True (CloneSetAvailable).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import type { CloneSet, CloneSetCondition } from '../../api/kruise/workloads/cloneset.js';
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

const get = () => w.client.get<CloneSet>(CloneSets, ns, 'c15');
const progressing = async (): Promise<CloneSetCondition | undefined> => (await get()).status?.conditions?.find((c) => c.type === 'Progressing');

test('C15: Progressing times out while pods stay unscheduled, then becomes available once fixed', async () => {
  await w.client.create(CloneSets, {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'c15', namespace: ns },
    spec: {
      replicas: 2, progressDeadlineSeconds: 10, selector: { matchLabels: { app: 'c15' } },
      template: { metadata: { labels: { app: 'c15' } }, spec: { schedulerName: 'none', containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
    },
  });
  const started = await eventually('Progressing True CloneSetUpdated', async () => {
    const c = await progressing();
    return c?.status === 'True' && c.reason === 'CloneSetUpdated' ? c : undefined;
  }, 10_000);
  const startedAt = Date.now();
  assert.equal(started.message, 'CloneSet is progressing');
  const timedOut = await eventually('Progressing False ProgressDeadlineExceeded', async () => {
    const c = await progressing();
    return c?.status === 'False' ? c : undefined;
  }, 25_000);
  const waited = Date.now() - startedAt;
  assert.ok(waited >= 8_000, `not before the deadline (after ${waited} ms)`);
  const cs = await get();
  assert.deepEqual({ reason: timedOut.reason, message: timedOut.message }, {
    reason: 'ProgressDeadlineExceeded', message: `CloneSet revision ${cs.status!.updateRevision} has timed out progressing`,
  });
  const pods = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=c15' })).items;
  assert.equal(pods.length, 2);
  assert.ok(pods.every((p) => p.metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingNormal' && !p.spec.nodeName));

  await w.client.patch(CloneSets, ns, 'c15', 'merge', { spec: { template: { spec: { schedulerName: 'default-scheduler' } } } });
  const done = await eventually('Progressing True CloneSetAvailable', async () => {
    const c = await progressing();
    return c?.status === 'True' && c.reason === 'CloneSetAvailable' ? c : undefined;
  }, 40_000);
  assert.equal(done.message, 'CloneSet is available');
  const s = (await get()).status!;
  assert.deepEqual([s.availableReplicas, s.updatedReplicas, s.currentRevision], [2, 2, s.updateRevision]);
});
