/** Image pre-download before in-place rollouts of CloneSets and Advanced StatefulSets, and Advanced DaemonSet rollouts (docs/design/image-pulling.md §10). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerRevision } from '../../api/core/index.js';
import { AdvancedDaemonSets, AdvancedStatefulSets, CloneSets, ImagePullJobs } from '../../api/kruise/resource-types.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupDaemonSetImagePreDownloadController, setupImagePreDownloadController, setupStatefulSetImagePreDownloadController } from '../../controllers/imagepredownload/index.js';
import { setupAdvancedDaemonSetController } from '../../controllers/daemonset/index.js';
import { setupAdvancedStatefulSetController } from '../../controllers/statefulset/index.js';
import { setupImagePullJobController } from '../../controllers/imagepulljob/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupNodeImageController } from '../../controllers/nodeimage/index.js';
import { eventually, startWorkloadEnv } from '../../testing/workload-env.js';

const cloneSet = (name: string, replicas: number, image: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: 'default' },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
    updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1, inPlaceUpdateStrategy: { imagePreDownloadParallelism: 2 } } },
  },
});

test('in-place rollout: one ImagePullJob per changed image, named after the revision, owned by the CloneSet, gone when the rollout is done; small sets are ignored', async () => {
  const w = await startWorkloadEnv({
    nodes: 2, daemons: true, pullDelayMs: 400, gates: 'PreDownloadImageForInPlaceUpdate=true',
    controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); setupNodeImageController(m, { creationDelayMs: 0 }); setupImagePullJobController(m); setupImagePreDownloadController(m); },
  });
  try {
    type Cs = { metadata: { uid?: string }; status?: { currentRevision?: string; updateRevision?: string; updatedReadyReplicas?: number } };
    const get = (name: string) => w.client.get<Cs & { metadata: { uid: string } }>(CloneSets, 'default', name);
    for (const [name, replicas] of [['web', 4], ['small', 3]] as const) await w.client.create(CloneSets, cloneSet(name, replicas, 'nginx:1.25'));
    for (const name of ['web', 'small']) await eventually(`${name} ready`, async () => { const s = (await get(name)).status; return s?.currentRevision && s.currentRevision === s.updateRevision && (s.updatedReadyReplicas ?? 0) >= 3; }, 30_000);
    for (const name of ['web', 'small']) await w.client.patch(CloneSets, 'default', name, 'merge', { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } } });
    const web = await get('web');
    const job = await eventually('pre-download job', async () => (await w.client.list<ImagePullJobObject>(ImagePullJobs, { namespace: 'default' })).items.find((j) => j.spec?.image === 'nginx:1.27'), 30_000);
    const update = (await get('web')).status!.updateRevision!;
    assert.equal(job.metadata.name, `${update}-main`);
    assert.deepEqual(job.metadata.ownerReferences!.map((o) => [o.kind, o.name, o.uid, o.controller]), [['CloneSet', 'web', web.metadata.uid, true]]);
    assert.equal(job.metadata.labels!.app, 'web');
    assert.ok(job.metadata.labels!['controller.kubernetes.io/hash']);
    assert.equal(job.spec!.parallelism, 2);
    assert.deepEqual(job.spec!.podSelector!.matchExpressions, [{ key: 'controller-revision-hash', operator: 'NotIn', values: [update, job.metadata.labels!['controller.kubernetes.io/hash']] }]);
    const revision = await w.client.get<ControllerRevision>(ControllerRevisions, 'default', update);
    assert.equal(revision.metadata.labels!['apps.kruise.io/pre-predownload-created'], 'true');
    const small = (await get('small')).status!.updateRevision!;
    await eventually('small set ignored', async () => (await w.client.get<ControllerRevision>(ControllerRevisions, 'default', small)).metadata.labels?.['apps.kruise.io/image-predownload-ignored'] === 'true');
    assert.equal((await w.client.list<ImagePullJobObject>(ImagePullJobs, { namespace: 'default' })).items.filter((j) => j.metadata.ownerReferences?.[0]?.name === 'small').length, 0);
    await eventually('rollout done and the job deleted', async () => {
      const s = (await get('web')).status;
      const jobs = (await w.client.list<ImagePullJobObject>(ImagePullJobs, { namespace: 'default' })).items.filter((j) => !j.metadata.deletionTimestamp);
      return s?.currentRevision === s?.updateRevision && jobs.length === 0;
    }, 60_000);
  } finally {
    await w.stop();
  }
});

const sameSpec = (kind: string, name: string, extra: Record<string, unknown>, image: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind, metadata: { name, namespace: 'default', annotations: { 'apps.kruise.io/image-predownload-parallelism': '3' } },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
    ...extra,
  },
});
// an in-place Advanced StatefulSet must carry the InPlaceUpdateReady gate in its template
const withGate = (obj: ReturnType<typeof sameSpec>) => {
  if (obj.kind === 'StatefulSet') Object.assign(obj.spec.template.spec, { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] });
  return obj;
};

for (const [kind, gate, resource, extra] of [
  ['StatefulSet', 'PreDownloadImageForInPlaceUpdate', AdvancedStatefulSets, { replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 } } }],
  ['DaemonSet', 'PreDownloadImageForDaemonSetUpdate', AdvancedDaemonSets, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } } }],
] as const) {
  test(`${kind} rollout (gate ${gate}): one ImagePullJob per changed image, owned by the ${kind}, gone when the rollout is done`, async () => {
    const w = await startWorkloadEnv({
      nodes: 3, daemons: true, pullDelayMs: 300, gates: `${gate}=true`,
      controllers: (m) => {
        setupAdvancedStatefulSetController(m); setupAdvancedDaemonSetController(m); setupPodReadinessController(m);
        setupNodeImageController(m, { creationDelayMs: 0 }); setupImagePullJobController(m);
        if (kind === 'StatefulSet') setupStatefulSetImagePreDownloadController(m); else setupDaemonSetImagePreDownloadController(m);
      },
    });
    try {
      type Set = { metadata: { uid: string }; status?: { updateRevision?: string; currentRevision?: string; updatedReadyReplicas?: number; numberReady?: number; updatedNumberScheduled?: number; desiredNumberScheduled?: number } };
      const get = () => w.client.get<Set>(resource, 'default', 'web');
      await w.client.create(resource, withGate(sameSpec(kind, 'web', extra, 'nginx:1.25')));
      await eventually('all pods ready', async () => { const s = (await get()).status; return (s?.updatedReadyReplicas ?? s?.numberReady ?? 0) >= 3; }, 30_000);
      await w.client.patch(resource, 'default', 'web', 'merge', { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } } });
      const job = await eventually('pre-download job', async () => (await w.client.list<ImagePullJobObject>(ImagePullJobs, { namespace: 'default' })).items.find((j) => j.spec?.image === 'nginx:1.27'), 30_000);
      const owner = await get();
      assert.deepEqual(job.metadata.ownerReferences!.map((o) => [o.kind, o.name, o.uid, o.controller]), [[kind, 'web', owner.metadata.uid, true]]);
      assert.match(job.metadata.name!, /^web-.+-main$/);
      assert.equal(job.spec!.parallelism, 3);
      await eventually('rollout done and the job deleted', async () => {
        const jobs = (await w.client.list<ImagePullJobObject>(ImagePullJobs, { namespace: 'default' })).items.filter((j) => !j.metadata.deletionTimestamp);
        const s = (await get()).status;
        const done = kind === 'StatefulSet' ? s?.currentRevision === s?.updateRevision : s?.updatedNumberScheduled === s?.desiredNumberScheduled;
        return done && jobs.length === 0;
      }, 60_000);
    } finally {
      await w.stop();
    }
  });
}
