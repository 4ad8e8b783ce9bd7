/**
 * BroadcastJob, AdvancedCronJob and EphemeralJob on a REAL control plane (kube-apiserver + kube-controller-manager
 * v1.32 from scripts/real-control-plane.sh): `kruise manager` out of process, our scheduler and three
 * simulated nodes as kubelets; the real Job controller runs the AdvancedCronJob's Jobs. Skipped, with
 * the reason, when the binaries are not cached.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>; // any: objects read back through kubectl -o json

const availability = realControlPlaneAvailable();
const podSpec = { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox:1.36', command: ['sh', '-c', 'exit 0'] }] };

describe('BroadcastJob, AdvancedCronJob and EphemeralJob on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 420_000 }, () => {
  const k = realKruiseForSuite({ name: 'kruise-real-jobs' });
  const { kubectl, json, apply } = k;

  test('BroadcastJob: one pod per simulated node, completed with 3 succeeded; kubectl get bcj shows the counters', async () => {
    await apply({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', metadata: { name: 'bcj-ok', namespace: 'default' }, spec: { template: { spec: podSpec } } });
    const job = await eventually('bcj-ok completed', async () => {
      const j = await json(['get', 'broadcastjobs.v1beta1.apps.kruise.io', 'bcj-ok']);
      return j.status?.phase === 'completed' ? j : undefined;
    }, 90_000);
    assert.deepEqual([job.status.desired, job.status.active, job.status.succeeded, job.status.failed], [3, 0, 3, 0]);
    const pods = (await json(['get', 'pods', '-l', 'broadcastjob-name=bcj-ok'])).items as Obj[];
    assert.deepEqual(pods.map((p) => p.spec.nodeName).sort(), ['sim-0', 'sim-1', 'sim-2']);
    const table = await kubectl(['get', 'bcj', 'bcj-ok']);
    assert.match(table.stdout.split('\n')[1]!, /^bcj-ok\s+3\s+0\s+3\s+0\s+/);
  });

  test('AdvancedCronJob: at the next minute a Job <acj>-<unix seconds>, run to completion by the real Job controller', async () => {
    await apply({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: { name: 'acj-real', namespace: 'default' },
      spec: { schedule: '*/1 * * * *', template: { jobTemplate: { metadata: { labels: { from: 'acj' } }, spec: { template: { spec: podSpec } } } } },
    });
    const job = await eventually('a Job from acj-real', async () => {
      const items = (await json(['get', 'jobs', '-l', 'from=acj'])).items as Obj[];
      return items[0];
    }, 100_000);
    assert.match(job.metadata.name, /^acj-real-\d{10}$/);
    const scheduled = Number(job.metadata.name.slice('acj-real-'.length)) * 1000;
    assert.equal(scheduled % 60_000, 0, 'a minute boundary');
    assert.equal(job.metadata.annotations['apps.kruise.io/scheduled-at'], new Date(scheduled).toISOString().replace('.000', ''));
    assert.equal(job.metadata.ownerReferences[0].kind, 'AdvancedCronJob');
    await eventually('the Job completes', async () => {
      const j = await json(['get', 'job', job.metadata.name]);
      return j.status?.succeeded === 1;
    }, 90_000);
    const acj = await eventually('acj status', async () => {
      const a = await json(['get', 'acj', 'acj-real']);
      return a.status?.lastScheduleTime ? a : undefined;
    }, 30_000);
    assert.equal(acj.status.type, 'Job');
    assert.equal(Date.parse(acj.status.lastScheduleTime) >= scheduled, true);
    const table = await kubectl(['get', 'acj', 'acj-real']);
    assert.match(table.stdout.split('\n')[0]!, /^NAME\s+SCHEDULE\s+TYPE\s+LASTSCHEDULETIME\s+AGE/);
  });

  test('EphemeralJob: its container added through the real pods/ephemeralcontainers, run by the simulated node, Succeeded', async () => {
    await apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hello', namespace: 'default', labels: { app: 'hello' } }, spec: { containers: [{ name: 'helloworld', image: 'nginx:1.25' }] } });
    await eventually('hello running', async () => (await json(['get', 'pod', 'hello'])).status?.phase === 'Running', 60_000);
    await apply({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: { name: 'ejob-real', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'hello' } }, template: { ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1'], targetContainerName: 'helloworld' }] } },
    });
    const job = await eventually('ejob-real succeeded', async () => {
      const j = await json(['get', 'ejob', 'ejob-real']);
      return j.status?.phase === 'Succeeded' ? j : undefined;
    }, 60_000);
    assert.deepEqual([job.status.match, job.status.succeeded, job.status.failed], [1, 1, 0]);
    const pod = await json(['get', 'pod', 'hello']);
    assert.equal(pod.spec.ephemeralContainers[0].env.find((e: Obj) => e.name === 'KRUISE_EJOB_ID').value, job.metadata.uid);
    assert.equal(pod.status.ephemeralContainerStatuses[0].state.terminated.exitCode, 0);
  });
});
