/** ADS acceptance D9 (surge) of docs/design/advanced-daemonset.md §11. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedDaemonSets, IMG2, ads, allNodes, assertNoViolation, condition, createNamespace, eventually, isPodReady, livePods, nodeOf,
  revisionOf, setImage, settled, startDaemonSetEnv, watchPods, type Pod,
} from './fixtures.js';

const seconds = (rfc3339: string | undefined) => Math.floor(Date.parse(rfc3339 ?? '') / 1000);

describe('ADS surge (D9)', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startDaemonSetEnv(); });
  after(async () => { await w?.stop(); });

  test('D9: surge keeps a Ready pod on every node and retires old pods only minReadySeconds after the new one is Ready', async () => {
    const ns = await createNamespace(w.client, 'd9');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { minReadySeconds: 3, updateStrategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    const v1 = await settled(w.client, ns, 'agent', { timeoutMs: 60_000 });
    const oldRevision = v1.status!.updateRevision;
    const retired: string[] = [];
    const watch = await watchPods(w.client, ns, 'agent', (live, all) => {
      const perNode = new Map<string, Pod[]>();
      for (const p of live) perNode.set(nodeOf(p) ?? '', [...(perNode.get(nodeOf(p) ?? '') ?? []), p]);
      const doubled = [...perNode.values()].filter((ps) => ps.length > 1).length;
      if (doubled > 1) return `${doubled} nodes with two live pods`;
      const unready = allNodes.filter((n) => !(perNode.get(n) ?? []).some(isPodReady));
      if (unready.length) return `no Ready pod on ${unready.join(',')}`;
      for (const old of all.filter((p) => p.metadata.deletionTimestamp && revisionOf(p) === oldRevision && !retired.includes(p.metadata.name!))) {
        retired.push(old.metadata.name!);
        const replacement = all.find((p) => nodeOf(p) === nodeOf(old) && revisionOf(p) !== oldRevision && isPodReady(p));
        if (!replacement) return `${old.metadata.name} deleted before its replacement was Ready`;
        const deletedAt = seconds(old.metadata.deletionTimestamp) - (old.metadata.deletionGracePeriodSeconds ?? 0);
        const readyAt = seconds(condition(replacement, 'Ready')?.lastTransitionTime);
        if (deletedAt - readyAt < 3) return `${old.metadata.name} deleted ${deletedAt - readyAt}s after its replacement was Ready`;
      }
      return undefined;
    });
    await setImage(w.client, ns, 'agent', IMG2);
    await settled(w.client, ns, 'agent', { notRevision: oldRevision, timeoutMs: 60_000 });
    await eventually('old pods gone', async () => (await livePods(w.client, ns, 'agent')).every((p) => revisionOf(p) !== oldRevision));
    watch.stop();
    assertNoViolation(watch);
    assert.equal(retired.length, 4, 'every old pod was retired');
  });
});
