/**
 * The StatefulSet controller on an embedded control plane, pods driven by hand: ordered creation
 * (web-1 not before web-0 is Ready), claims per ordinal, scale-down in reverse with whenScaled:
 * Delete, and a rolling update held at a partition, then finished.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ControllerRevisions, PersistentVolumeClaims, Pods, StatefulSets } from '../../../api/resource-type.js';
import { setRootLogger } from '../../../machinery/log.js';
import { setupStatefulSetController } from './index.js';
import { eventually, listPods, setPodState, settle, sleeper, controllerEnvForSuite } from '../../../testing/fake-clock-controller-env.js';
import { podIndexLabel, podNameLabel, revisionLabel } from './types.js';
import type { Pod, ControllerRevision, StatefulSet } from '../../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));
const ns = 'default';

describe('statefulset controller', () => {
  const env = controllerEnvForSuite((mgr) => setupStatefulSetController(mgr));

  const pods = () => listPods(env.client, ns, 'app=web');
  const names = async () => (await pods()).map((p) => p.metadata.name);
  const getSet = () => env.client.get<StatefulSet>(StatefulSets, ns, 'web');
  const ready = (name: string) => setPodState(env.client, env.clock, ns, name, 'Ready');
  const podNamed = async (name: string) => (await pods()).find((p) => p.metadata.name === name);
  const claimNames = async () => (await env.client.list(PersistentVolumeClaims, { namespace: ns })).items.map((c) => c.metadata.name).sort();

  test('creates pods in order, each after the previous is Running and Ready, with claims', async () => {
    await env.client.create<StatefulSet>(StatefulSets, {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: sleeper } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
      },
    });
    const web0 = await eventually(env.clock, () => podNamed('web-0'), 'web-0');
    assert.equal(web0.metadata.labels?.[podNameLabel], 'web-0');
    assert.equal(web0.metadata.labels?.[podIndexLabel], '0');
    assert.match(web0.metadata.labels?.[revisionLabel] ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(web0.spec?.hostname, 'web-0');
    assert.equal(web0.spec?.subdomain, 'web');
    assert.deepEqual(web0.spec?.volumes?.[0], { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } });
    assert.deepEqual(await claimNames(), ['data-web-0']);
    await settle(200);
    assert.deepEqual(await names(), ['web-0'], 'web-1 waits for web-0');
    await setPodState(env.client, env.clock, ns, 'web-0', 'Running');
    await settle(150);
    assert.deepEqual(await names(), ['web-0'], 'Running but not Ready is not enough');
    await ready('web-0');
    await eventually(env.clock, async () => (await names()).length === 2, 'web-1');
    await settle(150);
    assert.deepEqual(await names(), ['web-0', 'web-1']);
    await ready('web-1');
    await eventually(env.clock, () => podNamed('web-2'), 'web-2');
    await ready('web-2');
    const set = await eventually(env.clock, async () => {
      const s = await getSet();
      return s.status?.readyReplicas === 3 && s.status.observedGeneration === s.metadata.generation ? s : undefined;
    }, 'three ready');
    assert.equal(set.status?.currentRevision, set.status?.updateRevision);
    assert.equal(set.status?.currentReplicas, 3);
    const revisions = (await env.client.list<ControllerRevision>(ControllerRevisions, { namespace: ns })).items;
    assert.deepEqual(revisions.map((r) => [r.metadata.name, r.revision]), [[set.status?.updateRevision, 1]]);
    assert.deepEqual(await claimNames(), ['data-web-0', 'data-web-1', 'data-web-2']);
  });

  test('scales down from the highest ordinal; whenScaled: Delete removes the condemned claims', async () => {
    const deletions: string[] = [];
    const watch = env.client.watch<Pod>(Pods, { namespace: ns }, { onEvent: (e) => { if (e.type === 'DELETED') deletions.push(e.object.metadata.name!); }, onClose: () => undefined });
    await env.client.patch(StatefulSets, ns, 'web', 'merge', { spec: { replicas: 1 } });
    await eventually(env.clock, async () => (await names()).length === 1, 'one pod left');
    watch.stop();
    assert.deepEqual(deletions, ['web-2', 'web-1']);
    assert.deepEqual(await names(), ['web-0']);
    await eventually(env.clock, async () => (await claimNames()).length === 1, 'condemned claims deleted');
    assert.deepEqual(await claimNames(), ['data-web-0']);
  });

  test('rolling update stops at the partition, then finishes when it is lowered', async () => {
    await env.client.patch(StatefulSets, ns, 'web', 'merge', { spec: { replicas: 3 } });
    await eventually(env.clock, () => podNamed('web-1'), 'web-1 again');
    await ready('web-1');
    await eventually(env.clock, () => podNamed('web-2'), 'web-2 again');
    await ready('web-2');
    const before = await eventually(env.clock, async () => ((await getSet()).status?.readyReplicas === 3 ? getSet() : undefined), 'three ready');
    const oldRevision = before.status!.currentRevision!;
    await env.client.patch(StatefulSets, ns, 'web', 'merge', {
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } }, template: { metadata: { labels: { app: 'web', v: '2' } } } },
    });
    const revisionOf = async (name: string) => (await podNamed(name))?.metadata.labels?.[revisionLabel];
    const newRevision = await eventually(env.clock, async () => {
      const s = await getSet();
      return s.status?.updateRevision !== oldRevision ? s.status?.updateRevision : undefined;
    }, 'a new update revision');
    for (const name of ['web-2', 'web-1']) {
      const pod = await eventually(env.clock, async () => {
        const p = await podNamed(name);
        return p && p.metadata.labels?.[revisionLabel] === newRevision ? p : undefined;
      }, `${name} recreated at the update revision`);
      assert.equal(pod.metadata.labels?.v, '2');
      if (name === 'web-2') assert.equal(await revisionOf('web-1'), oldRevision, 'web-1 waits for web-2 to be Ready');
      await ready(name);
    }
    const held = await eventually(env.clock, async () => {
      const s = await getSet();
      return s.status?.updatedReplicas === 2 && s.status.readyReplicas === 3 ? s : undefined;
    }, 'two updated');
    await settle(150);
    assert.equal(await revisionOf('web-0'), oldRevision, 'web-0 is below the partition');
    assert.equal(held.status?.currentRevision, oldRevision);
    await env.client.patch(StatefulSets, ns, 'web', 'merge', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await eventually(env.clock, async () => (await revisionOf('web-0')) === newRevision, 'web-0 updated');
    await ready('web-0');
    const done = await eventually(env.clock, async () => {
      const s = await getSet();
      return s.status?.currentRevision === newRevision && s.status.readyReplicas === 3 ? s : undefined;
    }, 'rollout complete');
    assert.equal(done.status?.updatedReplicas, 3);
    const revisions = (await env.client.list<ControllerRevision>(ControllerRevisions, { namespace: ns })).items;
    assert.deepEqual(revisions.map((r) => r.revision).sort(), [1, 2]);
  });
});
