/** ImagePullJob end to end: NodeImages per node, pulls by the daemons, status, TTL, parallelism, gates. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ImagePullJobs, NodeImages } from '../../api/kruise/resource-types.js';
import { isNotFound, StatusError } from '../../machinery/errors.js';
import { eventually, holds } from '../../testing/workload-env.js';
import { getJob, getNodeImage, nodeNames, pullJob, startImageEnv, waitJob, watchPhases } from './fixtures.js';

describe('ImagePullJob', () => {
  test('NodeImages follow nodes with their labels; a deleted node takes its NodeImage along', async () => {
    const w = await startImageEnv();
    try {
      const [n1, n2] = nodeNames(w);
      const ni = await getNodeImage(w, n1!);
      assert.equal(ni.metadata.labels?.['kubernetes.io/hostname'], n1);
      await w.nodes().removeNode(n2!);
      await eventually('NodeImage of the deleted node gone', async () => getNodeImage(w, n2!).then(() => false, (e: unknown) => isNotFound(e)));
      await getNodeImage(w, n1!);
    } finally {
      await w.stop();
    }
  });

  test('pull-nginx: tags written, daemons report Pulling then Succeeded, job completes and is deleted after its TTL', async () => {
    const w = await startImageEnv({ pullDelayMs: 300 });
    try {
      const [n1, n2] = nodeNames(w);
      const watch = watchPhases(w, n1!, 'nginx', '1.25');
      await w.client.create(ImagePullJobs, pullJob('pull-nginx', { image: 'nginx:1.25', parallelism: 2, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 3 } }));
      const job = await waitJob(w, 'pull-nginx', (j) => !!j.status?.completionTime, 'completed');
      // the job's status can reach us before the NodeImage watch delivers the last phase
      await eventually('the watch saw the pull succeed', async () => watch.phases.includes('Succeeded'));
      watch.stop();
      assert.deepEqual({ desired: job.status!.desired, succeeded: job.status!.succeeded, active: job.status!.active, failed: job.status!.failed }, { desired: 2, succeeded: 2, active: 0, failed: 0 });
      assert.equal(job.status!.message, 'job has completed');
      assert.deepEqual(watch.phases.filter((p) => p !== 'Waiting'), ['Pulling', 'Succeeded']);
      for (const n of [n1!, n2!]) {
        const ni = await getNodeImage(w, n);
        const tag = ni.spec!.images!.nginx!.tags[0]!;
        assert.equal(tag.tag, '1.25');
        assert.equal(tag.version, 0);
        assert.deepEqual(tag.ownerReferences!.map((o) => [o.kind, o.name, o.uid]), [['ImagePullJob', 'pull-nginx', job.metadata.uid]]);
        const st = ni.status!.imageStatuses!.nginx!.tags[0]!;
        assert.equal(st.phase, 'Succeeded');
        assert.equal(st.progress, 100);
        assert.match(st.imageID!, /^nginx@sha256:[0-9a-f]{64}$/);
        assert.ok(st.completionTime);
        assert.equal(w.nodes().runtime(n)!.pullCount(), 1, `one pull on ${n}`);
      }
      await eventually('job deleted after its TTL', async () => getJob(w, 'pull-nginx').then(() => false, (e: unknown) => isNotFound(e)), 20_000);
      await eventually('tags of the deleted job dropped from NodeImages', async () => !(await getNodeImage(w, n1!)).spec?.images?.nginx);
    } finally {
      await w.stop();
    }
  });

  test('with ImagePullJobGate off, creating a job answers 403', async () => {
    const w = await startImageEnv({ gates: '' });
    try {
      await assert.rejects(w.client.create(ImagePullJobs, pullJob('pull-nginx', { image: 'nginx:1.25' })),
        (e: unknown) => e instanceof StatusError && e.code === 403 && e.message.includes('feature-gate ImagePullJobGate is not enabled'));
    } finally {
      await w.stop();
    }
  });

  test('parallelism 1 with slow pulls: never more than one node has an unfinished tag of the job', async () => {
    const w = await startImageEnv({ nodes: 3, pullDelayMs: 400 });
    try {
      await w.client.create(ImagePullJobs, pullJob('one-at-a-time', { image: 'nginx:1.25', parallelism: 1 }));
      const unfinished = async () => {
        const items = (await w.client.list<import('../../control/imagejob/index.js').NodeImageObject>(NodeImages)).items;
        return items.filter((ni) => ni.spec?.images?.nginx && !ni.status?.imageStatuses?.nginx?.tags.some((t) => t.tag === '1.25' && t.completionTime)).map((ni) => ni.metadata.name);
      };
      const done = waitJob(w, 'one-at-a-time', (j) => !!j.status?.completionTime, 'completed');
      let finished = false;
      void done.finally(() => { finished = true; });
      while (!finished) {
        const u = await unfinished();
        assert.ok(u.length <= 1, `nodes pulling at once: ${u.join(', ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal((await done).status!.succeeded, 3);
    } finally {
      await w.stop();
    }
  });

  test('selector names: desired counts only the named nodes; the others get nothing', async () => {
    const w = await startImageEnv();
    try {
      const [n1, n2] = nodeNames(w);
      await w.client.create(ImagePullJobs, pullJob('only-n1', { image: 'busybox:1.36', selector: { names: [n1] } }));
      const job = await waitJob(w, 'only-n1', (j) => !!j.status?.completionTime, 'completed');
      assert.equal(job.status!.desired, 1);
      assert.equal(job.status!.succeeded, 1);
      await holds('n2 untouched', async () => ((await getNodeImage(w, n2!)).spec?.images?.busybox ? 'n2 got busybox' : undefined), 200);
    } finally {
      await w.stop();
    }
  });

  test('IfNotPresent with the image on the node: Succeeded without PullImage; Always: PullImage is called', async () => {
    const w = await startImageEnv();
    try {
      const [n1] = nodeNames(w);
      const runtime = w.nodes().runtime(n1!)!;
      await runtime.pullImage({ image: 'nginx:1.25' });
      const before = runtime.pullRequestCount();
      await w.client.create(ImagePullJobs, pullJob('if-not-present', { image: 'nginx:1.25', selector: { names: [n1] }, imagePullPolicy: 'IfNotPresent' }));
      assert.equal((await waitJob(w, 'if-not-present', (j) => !!j.status?.completionTime)).status!.succeeded, 1);
      assert.equal(runtime.pullRequestCount(), before, 'no PullImage for a present image');
      await w.client.create(ImagePullJobs, pullJob('always', { image: 'nginx:1.25', selector: { names: [n1] }, imagePullPolicy: 'Always' }));
      assert.equal((await waitJob(w, 'always', (j) => !!j.status?.completionTime)).status!.succeeded, 1);
      assert.equal(runtime.pullRequestCount(), before + 1, 'Always calls PullImage');
      const tag = (await getNodeImage(w, n1!)).spec!.images!.nginx!.tags[0]!;
      assert.equal(tag.version, 1, 'the second job bumped the tag version');
      assert.equal(tag.ownerReferences!.length, 2);
    } finally {
      await w.stop();
    }
  });
});
