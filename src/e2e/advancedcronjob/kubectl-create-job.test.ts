/**
 * `kubectl kruise create job NAME --from=acj/NAME` through the real kubectl and our plugin: a Job
 * from the AdvancedCronJob's job template, marked as made by hand and owned by the AdvancedCronJob;
 * an AdvancedCronJob of BroadcastJobs is refused as kruise-tools refuses it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Jobs } from '../../api/resource-type.js';
import { kubectlBinary } from '../../testing/kubectl.js';
import { acjB, acjJob, createAcj, getAcj, ns, startAcjEnv, until, type AcjEnv, type Child } from './fixtures.js';

const binDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin');
let w: AcjEnv;
before(async () => { w = await startAcjEnv(); });
after(() => w.stop());

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(kubectlBinary(32), args, { env: { ...process.env, KUBECONFIG: w.env.kubeconfig, PATH: `${binDir}:${process.env.PATH ?? ''}` }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

test('kubectl kruise create job --from=acj/NAME makes a Job from the job template', async () => {
  const { acj } = await createAcj(w, acjJob('nightly', { schedule: '0 3 * * *' }));
  await until(w, 'status.type', async () => (await getAcj(w, 'nightly')).status?.type === 'Job');
  const out = await kubectl(['kruise', 'create', 'job', 'by-hand', '--from=acj/nightly', '-n', ns]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), 'job.batch/by-hand created');
  const job = await w.client.get<Child>(Jobs, ns, 'by-hand');
  assert.equal(job.metadata.annotations!['cronjob.kubernetes.io/instantiate'], 'manual');
  assert.equal(job.metadata.labels!.from, 'acj-job');
  assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', name: 'nightly', uid: acj.metadata.uid }]);
  assert.equal((job.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]!.image, 'busybox:1.36');

  await createAcj(w, acjB('bcj-cron', { schedule: '0 3 * * *' }));
  await until(w, 'status.type', async () => (await getAcj(w, 'bcj-cron')).status?.type === 'BroadcastJob');
  const refused = await kubectl(['kruise', 'create', 'job', 'nope', '--from=acj/bcj-cron', '-n', ns]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /from must be a job template, but got BroadcastJob/);
  const neither = await kubectl(['kruise', 'create', 'job', 'nope', '-n', ns]);
  assert.match(neither.stderr, /either --image or --from must be specified/);
});
