/**
 * EphemeralJob scenarios from the upstream manual on the embedded cluster (docs/design/jobs.md §5):
 * ephemeral containers injected into `replicas` matching pods, `parallelism` at a time, marked with
 * KRUISE_EJOB_ID and run by the simulated kubelet; failures, the deadline, no match, pause, a
 * container name taken by someone else, the finalizer and the TTL.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { EphemeralJobs } from '../../api/kruise/resource-types.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import { setupEphemeralJobController } from '../../controllers/ephemeraljob/index.js';
import type { EphemeralJob } from '../../controllers/ephemeraljob/types.js';
import { StatusError } from '../../machinery/errors.js';
import { eventually, type WorkloadEnv, startWorkloadEnv } from '../../testing/workload-env.js';

const ns = 'e';

describe('EphemeralJob', () => {
  let w: WorkloadEnv;
  before(async () => {
    w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupEphemeralJobController(m); } });
    await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  });
  after(async () => { await w.stop(); });

  const runPods = async (app: string, n: number) => {
    for (let i = 0; i < n; i++) {
      await w.client.create(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${app}-${i}`, namespace: ns, labels: { app } }, spec: { containers: [{ name: 'helloworld', image: 'nginx:1.25' }] } });
      await new Promise((r) => setTimeout(r, 1100)); // distinct creation seconds: oldest first is well defined
    }
    await eventually(`${app} pods running`, async () => (await pods(app)).filter((p) => p.status?.phase === 'Running').length === n, 20_000);
  };
  const pods = async (app: string) => (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  const ejob = (name: string, app: string, spec: Record<string, unknown>, command = 'sleep 1'): EphemeralJob => ({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app } },
      template: { ephemeralContainers: [{ targetContainerName: 'helloworld', name: 'ephemeralcontainer-demo', image: 'busybox:latest', command: ['/bin/sh', '-c', command], imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] },
      ...spec,
    },
  } as EphemeralJob);
  const get = (name: string) => w.client.get<EphemeralJob>(EphemeralJobs, ns, name);
  const waitPhase = (name: string, phase: string, ms = 20_000) => eventually(`${name} ${phase}`, async () => {
    const j = await get(name);
    return j.status?.phase === phase ? j : undefined;
  }, ms);
  const counts = (j: EphemeralJob) => ({ match: j.status?.match, succeeded: j.status?.succeeded, failed: j.status?.failed, running: j.status?.running, waiting: j.status?.waiting });

  test('the manual example: replicas 2, parallelism 1: the two oldest pods, one at a time, then Succeeded', async () => {
    await runPods('hello', 3);
    const created = await w.client.create<EphemeralJob>(EphemeralJobs, ejob('demo', 'hello', { replicas: 2, parallelism: 1 }));
    let most = 0;
    const done = await eventually('demo succeeded', async () => {
      const running = (await pods('hello')).filter((p) => p.status?.ephemeralContainerStatuses?.some((s) => s.state?.running)).length;
      most = Math.max(most, running);
      const j = await get('demo');
      return j.status?.phase === 'Succeeded' ? j : undefined;
    }, 30_000);
    assert.equal(most, 1, 'never two at once');
    assert.deepEqual(counts(done), { match: 2, succeeded: 2, failed: 0, running: 0, waiting: 0 });
    assert.deepEqual(done.status!.conditions!.map((c) => [c.type, c.reason, c.message]), [['Initialized', 'Initialized', ''], ['JobSucceeded', 'JobSucceeded', 'job success to run all tasks']]);
    assert.ok(done.status!.completionTime);
    const [p0, p1, p2] = await pods('hello');
    for (const pod of [p0!, p1!]) {
      const [c] = pod.spec.ephemeralContainers!;
      assert.equal(c!.name, 'ephemeralcontainer-demo');
      assert.deepEqual(c!.env, [{ name: 'KRUISE_EJOB_ID', value: created.metadata!.uid }]);
      assert.equal(pod.status!.ephemeralContainerStatuses![0]!.state!.terminated!.exitCode, 0);
    }
    assert.equal(p2!.spec.ephemeralContainers, undefined, 'the third pod is beyond replicas');
    assert.deepEqual((await get('demo')).metadata!.finalizers, ['apps.kruise.io/ephemeralcontainers-cleanup']);
    const out = (await w.env.kubectl(['get', 'ejob', 'demo', '-n', ns])).stdout.split('\n');
    assert.match(out[0]!, /^NAME\s+STATUS\s+MATCH\s+SUCCEED\s+FAILED\s+RUNNING\s+WAITING\s+AGE/);
    assert.match(out[1]!, /^demo\s+Succeeded\s+2\s+2\s+0\s+0\s+0\s/);
  });

  test('a container exiting 1 fails the job; the deadline fails a job that runs too long', async () => {
    await runPods('fail', 1);
    await w.client.create(EphemeralJobs, ejob('fails', 'fail', {}, 'exit 1'));
    const failed = await waitPhase('fails', 'Failed');
    assert.deepEqual(counts(failed), { match: 1, succeeded: 0, failed: 1, running: 0, waiting: 0 });
    assert.equal(failed.status!.conditions!.find((c) => c.type === 'JobFailed')!.message, 'job failed to run all tasks, 1/1 pods failed');
    await runPods('slow', 1);
    await w.client.create(EphemeralJobs, ejob('slow', 'slow', { activeDeadlineSeconds: 2 }, 'sleep 100000'));
    const late = await waitPhase('slow', 'Failed');
    const cond = late.status!.conditions!.find((c) => c.type === 'JobFailed')!;
    assert.deepEqual([cond.reason, cond.message], ['DeadlineExceeded', 'EphemeralJob e/slow was active longer than specified deadline']);
  });

  test('no matching pod: Waiting with MatchedEmpty; paused: Paused and nothing injected', async () => {
    await w.client.create(EphemeralJobs, ejob('nobody', 'nobody', {}));
    const waiting = await waitPhase('nobody', 'Waiting');
    assert.equal(waiting.status!.match, 0);
    assert.ok(waiting.status!.conditions!.some((c) => c.type === 'MatchedEmpty' && c.message === 'job match no pods'));
    await runPods('held', 1);
    await w.client.create(EphemeralJobs, ejob('held', 'held', { paused: true }));
    await waitPhase('held', 'Paused');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await pods('held'))[0]!.spec.ephemeralContainers, undefined);
    await w.client.patch(EphemeralJobs, ns, 'held', 'merge', { spec: { paused: false } });
    await waitPhase('held', 'Succeeded');
  });

  test('a pod whose ephemeral container name is taken by someone else is skipped', async () => {
    await runPods('taken', 2);
    await w.client.patch(Pods, ns, 'taken-0', 'strategic', { spec: { ephemeralContainers: [{ name: 'ephemeralcontainer-demo', image: 'busybox:1.36', command: ['sleep', '1'] }] } }, { subresource: 'ephemeralcontainers' });
    await w.client.create(EphemeralJobs, ejob('taken', 'taken', { parallelism: 2 }));
    const done = await waitPhase('taken', 'Succeeded');
    assert.equal(done.status!.match, 1);
    assert.ok((await pods('taken'))[1]!.spec.ephemeralContainers![0]!.env!.some((e) => e.name === 'KRUISE_EJOB_ID'));
  });

  test('ttlSecondsAfterFinished: deleted after finishing, the finalizer released', async () => {
    await runPods('ttl', 1);
    await w.client.create(EphemeralJobs, ejob('ttl', 'ttl', { ttlSecondsAfterFinished: 1 }, 'exit 0'));
    await eventually('ttl job deleted', async () => get('ttl').then(() => false, (e: unknown) => e instanceof StatusError && e.code === 404), 20_000);
  });
});
