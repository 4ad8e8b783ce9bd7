/**
 * The writes a CloneSet in-place rollout costs, on the embedded control plane with the simulated
 * kubelet: per pod one pods/status update turning InPlaceUpdateReady False, one pod update with the
 * new image, and one pods/status update turning it True again that also moves the lifecycle state
 * back to Normal — no separate pod patch. What a user sees stays: conditions, labels, events.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { Events, Pods } from '../../api/resource-type.js';
import { WriteLog, type WriteVerb } from '../../testing/recording-client.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { setupPodReadinessController } from '../podreadiness/index.js';
import { CloneSets, setupCloneSetController } from './index.js';
import type { CloneSet } from './pods.js';
import type { Pod } from '../../api/core/index.js';

const name = 'w';
const replicas = 4;
const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

const cloneSet = (image: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: 'default' },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
  },
});

describe('CloneSet writes', () => {
  let w: WorkloadEnv;
  const log = new WriteLog();
  before(async () => {
    w = await startWorkloadEnv({
      controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); },
      around: log.around,
    });
  });
  after(() => w.stop());

  const settled = (image: string) => eventually(`${replicas} pods available on ${image}`, async () => {
    const cs = await w.client.get<CloneSet>(CloneSets, 'default', name);
    const s = cs.status;
    const done = !!s && s.observedGeneration === cs.metadata.generation && s.updatedAvailableReplicas === replicas
      && s.availableReplicas === replicas && s.currentRevision === s.updateRevision;
    const pods = (await w.client.list<Pod>(Pods, { namespace: 'default', labelSelector: `app=${name}` })).items
      .filter((p) => !p.metadata.deletionTimestamp && p.spec.containers[0]!.image === image);
    return done && pods.length === replicas ? { cs, pods } : undefined;
  }, 60_000);
  const ok = (from: number, verb: WriteVerb, resource: string) => log.succeeded(from, verb, resource);

  test('an in-place update costs 2 status updates and 1 update per pod; the move back to Normal rides on the second', async () => {
    await w.client.create(CloneSets, cloneSet('nginx:1.25-alpine'));
    const { pods: before } = await settled('nginx:1.25-alpine');
    const uids = new Map(before.map((p) => [p.metadata.name, p.metadata.uid]));

    const start = log.writes.length;
    await w.client.patch(CloneSets, 'default', name, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.26-alpine' }]);
    const { cs, pods } = await settled('nginx:1.26-alpine');
    assert.deepEqual(new Map(pods.map((p) => [p.metadata.name, p.metadata.uid])), uids, 'same pods, updated in place');
    for (const pod of pods) {
      const labels = pod.metadata.labels ?? {};
      assert.equal(condition(pod, 'InPlaceUpdateReady')?.status, 'True', pod.metadata.name);
      assert.equal(labels['lifecycle.apps.kruise.io/state'], 'Normal', pod.metadata.name);
      assert.match(pod.metadata.annotations?.['lifecycle.apps.kruise.io/timestamp'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(labels['controller-revision-hash'], cs.status!.updateRevision, pod.metadata.name);
      assert.equal(labels['pod-template-hash'], cs.status!.updateRevision!.slice(`${name}-`.length), pod.metadata.name);
      assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 1, pod.metadata.name);
    }
    assert.equal(ok(start, 'update', 'pods').length, replicas, 'one spec update per pod');
    assert.equal(ok(start, 'updateStatus', 'pods').length, 2 * replicas, 'InPlaceUpdateReady False, then True with the lifecycle move');
    assert.deepEqual(ok(start, 'patch', 'pods').map((x) => x.name), [], 'no separate lifecycle patch');
    await eventually('an in-place event per pod', async () => {
      const events = (await w.client.list<KObject & { reason?: string }>(Events, { namespace: 'default' })).items;
      return events.filter((e) => e.reason === 'SuccessfulUpdatePodInPlace').length === replicas;
    });
  });
});
