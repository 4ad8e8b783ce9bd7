/** ImageListPullJob: one child ImagePullJob per image, summed status, children replaced on template change. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageListPullJobs, ImagePullJobs } from '../../api/kruise/resource-types.js';
import type { ImageListPullJobObject, ImagePullJobObject } from '../../control/imagejob/index.js';
import { eventually } from '../../testing/workload-env.js';
import { startImageEnv } from './fixtures.js';

function listJob(name: string, spec: Record<string, unknown>): ImageListPullJobObject {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: { name, namespace: 't' }, spec: spec as ImageListPullJobObject['spec'] };
}

type W = Awaited<ReturnType<typeof startImageEnv>>;
const children = async (w: W, owner: string) => (await w.client.list<ImagePullJobObject>(ImagePullJobs, { namespace: 't' })).items
  .filter((j) => j.metadata.ownerReferences?.some((o) => o.kind === 'ImageListPullJob' && o.name === owner) && !j.metadata.deletionTimestamp);
const getList = (w: W, name: string) => w.client.get<ImageListPullJobObject>(ImageListPullJobs, 't', name);

describe('ImageListPullJob', () => {
  test('two images: two children with the template hash; status desired 2, completed 2, succeeded 2, completionTime', async () => {
    const w = await startImageEnv();
    try {
      await w.client.create(ImageListPullJobs, listJob('base-images', { images: ['nginx:1.25', 'busybox:1.36'], parallelism: 2 }));
      const done = await eventually('list job completed', async () => { const j = await getList(w, 'base-images'); return j.status?.completionTime ? j : undefined; }, 30_000);
      assert.deepEqual({ desired: done.status!.desired, completed: done.status!.completed, succeeded: done.status!.succeeded }, { desired: 2, completed: 2, succeeded: 2 });
      const hash = done.metadata.labels!['controller-revision-hash'];
      assert.ok(hash);
      const kids = await children(w, 'base-images');
      assert.deepEqual(kids.map((k) => k.spec!.image).sort(), ['busybox:1.36', 'nginx:1.25']);
      for (const k of kids) {
        assert.match(k.metadata.name!, /^base-images-[a-z0-9]{5}$/);
        assert.equal(k.metadata.labels!['controller-revision-hash'], hash);
        assert.equal(k.spec!.parallelism, 2);
        assert.equal(k.status!.succeeded, 2);
      }
    } finally {
      await w.stop();
    }
  });

  test('editing parallelism replaces both children; removing an image deletes its child', async () => {
    const w = await startImageEnv();
    try {
      await w.client.create(ImageListPullJobs, listJob('daily', { images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: { type: 'Never' } }));
      const first = await eventually('two children', async () => { const k = await children(w, 'daily'); return k.length === 2 && k; });
      await w.client.patch(ImageListPullJobs, 't', 'daily', 'merge', { spec: { parallelism: 2 } });
      const second = await eventually('two new children', async () => {
        const k = await children(w, 'daily');
        return k.length === 2 && k.every((c) => c.spec!.parallelism === 2) && k;
      });
      assert.equal(second.filter((c) => first.some((f) => f.metadata.uid === c.metadata.uid)).length, 0, 'both children replaced');
      await w.client.patch(ImageListPullJobs, 't', 'daily', 'merge', { spec: { images: ['nginx:1.25'] } });
      await eventually('busybox child deleted', async () => { const k = await children(w, 'daily'); return k.length === 1 && k[0]!.spec!.image === 'nginx:1.25'; });
      await eventually('status desired 1', async () => (await getList(w, 'daily')).status?.desired === 1);
    } finally {
      await w.stop();
    }
  });
});
