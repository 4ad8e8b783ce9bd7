/** Failed pulls, rejected manifests, and daemons restarting in the middle of a job. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ImagePullJobs } from '../../api/kruise/resource-types.js';
import { StatusError } from '../../machinery/errors.js';
import { eventually } from '../../testing/workload-env.js';
import { eventsAbout, getNodeImage, nodeNames, pullJob, startImageEnv, waitJob } from './fixtures.js';

describe('ImagePullJob failures', () => {
  test('a registry failing on one node: that tag fails after backoffLimit + 1 attempts; failedNodes names the node', async () => {
    const w = await startImageEnv({ pullError: (image, _auth, node) => (node === 'kruise-node-1' && image.includes('nginx') ? 'dial tcp 10.0.0.9:443: connect: connection refused' : undefined) });
    try {
      const [n1, n2] = nodeNames(w);
      await w.client.create(ImagePullJobs, pullJob('flaky', { image: 'nginx:1.25', parallelism: 2, pullPolicy: { backoffLimit: 1, timeoutSeconds: 10 } }));
      const job = await waitJob(w, 'flaky', (j) => !!j.status?.completionTime, 'completed');
      assert.deepEqual({ failed: job.status!.failed, succeeded: job.status!.succeeded, failedNodes: job.status!.failedNodes }, { failed: 1, succeeded: 1, failedNodes: [n2] });
      assert.equal(w.nodes().runtime(n2!)!.pullCount(), 2, 'two attempts on the failing node');
      const st = (await getNodeImage(w, n2!)).status!.imageStatuses!.nginx!.tags[0]!;
      assert.equal(st.phase, 'Failed');
      assert.match(st.message!, /connection refused/);
      assert.equal((await getNodeImage(w, n1!)).status!.imageStatuses!.nginx!.tags[0]!.phase, 'Succeeded');
      await eventually('PullImageFailed event on the job', async () => (await eventsAbout(w, { kind: 'ImagePullJob', name: 'flaky', namespace: 't' })).some((e) => e.reason === 'PullImageFailed' && e.message!.includes(n2!)));
    } finally {
      await w.stop();
    }
  });

  test('rejected manifests name the field: bad image, names with labels, percentage parallelism, deadline below the timeout', async () => {
    const w = await startImageEnv();
    try {
      const cases: [Record<string, unknown>, string][] = [
        [{ image: 'Nginx:1.25' }, 'spec.image'],
        [{ image: 'nginx:1.25', selector: { names: ['n1'], matchLabels: { a: 'b' } } }, 'spec.selector'],
        [{ image: 'nginx:1.25', parallelism: '50%' }, 'parallelism does not support percentage value'],
        [{ image: 'nginx:1.25', completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 } }, 'spec.completionPolicy.activeDeadlineSeconds'],
      ];
      for (const [i, [spec, fragment]] of cases.entries()) {
        await assert.rejects(w.client.create(ImagePullJobs, pullJob(`bad-${i}`, spec)),
          (e: unknown) => e instanceof StatusError && e.code === 400 && e.message.includes(fragment), `case ${i}`);
      }
    } finally {
      await w.stop();
    }
  });

  test('daemons restarted mid-job: the job completes and every image is pulled once per node', async () => {
    const w = await startImageEnv({ pullDelayMs: 1500, daemonOptions: { maxWorkersForPullImage: 1 } });
    try {
      const images = ['nginx:1.25', 'busybox:1.36', 'redis:7.2'];
      for (const [i, image] of images.entries()) await w.client.create(ImagePullJobs, pullJob(`job-${i}`, { image, parallelism: 2 }));
      await eventually('some tag pulling', async () => (await getNodeImage(w, nodeNames(w)[0]!)).status?.pulling === 1);
      await w.restartDaemons();
      for (const i of images.keys()) {
        const job = await waitJob(w, `job-${i}`, (j) => !!j.status?.completionTime, 'completed', 60_000);
        assert.equal(job.status!.succeeded, 2, job.status!.message);
      }
      for (const n of nodeNames(w)) assert.equal(w.nodes().runtime(n)!.pullCount(), images.length, `pulls on ${n}`);
    } finally {
      await w.stop();
    }
  });
});
