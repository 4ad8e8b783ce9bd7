/** Pull secrets: copied into kruise-daemon-config for the daemons, released when the job is done; a missing one fails the pulls cleanly. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Secret } from '../../api/core/index.js';
import { Secrets } from '../../api/resource-type.js';
import { ImagePullJobs } from '../../api/kruise/resource-types.js';
import { parseNodeBehaviour } from '../../cluster/kubelet/index.js';
import { StatusError } from '../../machinery/errors.js';
import { eventually } from '../../testing/workload-env.js';
import { eventsAbout, getJob, getNodeImage, nodeNames, pullJob, startImageEnv, waitJob } from './fixtures.js';

const privateRegistry = parseNodeBehaviour(`
apiVersion: kruise-ts.io/v1alpha1
kind: NodeBehaviour
images:
  - image: private.example.com/*
    auth: { username: robot, password: s3cret }
`, 'test');

function dockerConfigSecret(name: string, password: string): Secret {
  const config = { auths: { 'private.example.com': { username: 'robot', password } } };
  return {
    apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/dockerconfigjson', metadata: { name, namespace: 't' },
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify(config)).toString('base64') },
  };
}

const copies = async (w: Awaited<ReturnType<typeof startImageEnv>>) =>
  (await w.client.list<Secret>(Secrets, { namespace: 'kruise-daemon-config' })).items.filter((s) => s.metadata.annotations?.['imagepulljobs.kruise.io/source-key']);

describe('ImagePullJob pull secrets', () => {
  test('a dockerconfigjson secret is copied for the daemons, the private image is pulled, the copy and finalizer go with completion', async () => {
    const w = await startImageEnv({ pullDelayMs: 500, nodeBehaviour: privateRegistry });
    try {
      await w.client.create(Secrets, dockerConfigSecret('reg', 's3cret'));
      await w.client.create(ImagePullJobs, pullJob('pull-private', { image: 'private.example.com/app:1.0', parallelism: 2, pullSecrets: ['reg'] }));
      const [copy] = await eventually('a copy in kruise-daemon-config', async () => ((await copies(w)).length === 1 ? copies(w) : undefined));
      assert.match(copy!.metadata.name!, /^reg-[0-9a-f]{6}$/);
      assert.equal(copy!.metadata.annotations!['imagepulljobs.kruise.io/source-key'], 't/reg');
      assert.equal(copy!.metadata.annotations!['imagepulljobs.kruise.io/references'], 't/pull-private');
      assert.equal(copy!.metadata.annotations!['imagepulljobs.kruise.io/mode'], 'batch');
      const running = await getJob(w, 'pull-private');
      assert.deepEqual(running.metadata.finalizers, ['apps.kruise.io/deletion-protection']);
      const ni = await eventually('the job on the NodeImage', async () => { const n = await getNodeImage(w, nodeNames(w)[0]!); return n.spec?.images?.['private.example.com/app'] && n; });
      assert.deepEqual(ni.spec!.images!['private.example.com/app']!.pullSecrets, [{ namespace: 'kruise-daemon-config', name: copy!.metadata.name, mode: 'batch' }]);
      await assert.rejects(w.client.patch(ImagePullJobs, 't', 'pull-private', 'merge', { spec: { pullSecrets: ['other'] } }),
        (e: unknown) => e instanceof StatusError && e.message.includes('spec.pullSecrets is immutable'));
      const job = await waitJob(w, 'pull-private', (j) => !!j.status?.completionTime, 'completed');
      assert.equal(job.status!.succeeded, 2, job.status!.message);
      await eventually('copy deleted and finalizer removed', async () => (await copies(w)).length === 0 && !(await getJob(w, 'pull-private')).metadata.finalizers?.length);
    } finally {
      await w.stop();
    }
  });

  test('a pull secret that does not exist: a warning names it, the pulls fail with the registry\'s refusal, the job finishes', async () => {
    const w = await startImageEnv({ nodeBehaviour: privateRegistry });
    try {
      await w.client.create(ImagePullJobs, pullJob('no-secret', { image: 'private.example.com/app:1.0', parallelism: 2, pullSecrets: ['missing'], pullPolicy: { backoffLimit: 0 } }));
      const job = await waitJob(w, 'no-secret', (j) => !!j.status?.completionTime, 'completed');
      assert.deepEqual({ failed: job.status!.failed, succeeded: job.status!.succeeded, failedNodes: job.status!.failedNodes }, { failed: 2, succeeded: 0, failedNodes: nodeNames(w) });
      assert.equal(job.status!.message, 'job has completed');
      const st = (await getNodeImage(w, nodeNames(w)[0]!)).status!.imageStatuses!['private.example.com/app']!.tags[0]!;
      assert.equal(st.phase, 'Failed');
      assert.match(st.message!, /pull access denied/);
      const events = await eventsAbout(w, { kind: 'ImagePullJob', name: 'no-secret', namespace: 't' });
      assert.ok(events.some((e) => e.reason === 'PullSecretNotFound' && e.message!.includes('missing')), JSON.stringify(events));
      assert.equal((await copies(w)).length, 0);
      await eventually('finalizer removed', async () => !(await getJob(w, 'no-secret')).metadata.finalizers?.length);
    } finally {
      await w.stop();
    }
  });
});
