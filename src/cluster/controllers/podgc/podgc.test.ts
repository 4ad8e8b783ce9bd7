/**
 * The pod garbage collector on an embedded control plane with a fake clock: a pod whose node went
 * away is failed (DisruptionTarget DeletionByPodGC) and force-deleted after the 40 s quarantine,
 * not before; a pod on a live node is left alone.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Nodes, Pods } from '../../../api/resource-type.js';
import { isNotFound } from '../../../machinery/errors.js';
import { setRootLogger } from '../../../machinery/log.js';
import { eventually, settle, sleeper, controllerEnvForSuite } from '../../../testing/fake-clock-controller-env.js';
import { orphanQuarantineMs, setupPodGCController } from './index.js';
import type { Node, Pod } from '../../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));

describe('pod garbage collector', () => {
  const env = controllerEnvForSuite((mgr) => setupPodGCController(mgr));

  const node = (name: string) => env.client.create<Node>(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name } });
  const pod = (name: string, nodeName?: string, finalizers?: string[]) => env.client.create<Pod>(Pods, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', finalizers }, spec: { nodeName, containers: sleeper },
  });
  const gone = (name: string) => env.client.get<Pod>(Pods, 'default', name).then(() => false, (e: unknown) => isNotFound(e));

  test('pods of a deleted node are failed and force-deleted after the quarantine', async () => {
    await node('n1');
    await node('n2');
    await pod('orphan', 'n1', ['example.com/hold']); // the finalizer keeps it visible once deleted
    await pod('kept', 'n2');
    await env.client.delete(Nodes, undefined, 'n1');
    await settle();
    env.clock.advance(orphanQuarantineMs - 1000);
    await settle();
    const early = await env.client.get<Pod>(Pods, 'default', 'orphan');
    assert.equal(early.metadata.deletionTimestamp, undefined, 'not within the quarantine');
    const deleted = await eventually(env.clock, async () => {
      const p = await env.client.get<Pod>(Pods, 'default', 'orphan');
      return p.metadata.deletionTimestamp ? p : undefined;
    }, 'orphan deleted', 200);
    assert.equal(deleted.metadata.deletionGracePeriodSeconds, 0, 'force-deleted');
    assert.equal(deleted.status?.phase, 'Failed');
    const c = deleted.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
    assert.deepEqual([c?.status, c?.reason, c?.message], ['True', 'DeletionByPodGC', 'PodGC: node no longer exists']);
    await env.client.patch(Pods, 'default', 'orphan', 'merge', { metadata: { finalizers: null } });
    await eventually(env.clock, () => gone('orphan'), 'orphan gone');
    const kept = await env.client.get<Pod>(Pods, 'default', 'kept');
    assert.equal(kept.metadata.deletionTimestamp, undefined, 'a pod of a live node stays');
  });
});
