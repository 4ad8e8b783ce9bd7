import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { Client } from '../../client/client.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { FakeClock } from '../../machinery/clock.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import { PodReadinessReconciler } from './reconcile.js';
import type { Pod } from '../../api/core/index.js';

const gated = (resourceVersion: string): Pod => ({
  metadata: { name: 'p', namespace: 'ns', resourceVersion }, spec: { containers: [], readinessGates: [{ conditionType: 'KruisePodReady' }] },
  status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] },
});
const ctx = (): ReconcileContext => ({ signal: new AbortController().signal, log: pino({ level: 'silent' }), clock: new FakeClock('2024-05-01T10:00:00Z'), reconcileId: 'r' });

function harness(updates: (Pod | Error)[], cached: Pod | undefined, fresh: Pod) {
  const written: Pod[] = [];
  const client = {
    async updateStatus(_t: unknown, pod: Pod) {
      written.push(pod);
      const next = updates.shift();
      if (next instanceof Error) throw next;
      return next ?? pod;
    },
    async get() { return fresh; },
  } as unknown as Client;
  const pods = { get: () => cached } as unknown as Informer<Pod>;
  return { written, reconciler: new PodReadinessReconciler({ client, pods }) };
}

describe('PodReadinessReconciler', () => {
  test('appends KruisePodReady=True at the clock time, keeping other conditions and status', async () => {
    const { written, reconciler } = harness([], gated('5'), gated('5'));
    await reconciler.reconcile(ctx(), { namespace: 'ns', name: 'p' });
    assert.equal(written.length, 1);
    assert.equal(written[0]!.metadata.resourceVersion, '5');
    assert.deepEqual(written[0]!.status, {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'KruisePodReady', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' }],
    });
  });

  test('a conflict re-reads the pod from the API server and writes again', async () => {
    const conflict = errors.conflict('pods', 'p');
    const { written, reconciler } = harness([conflict], gated('5'), gated('7'));
    await reconciler.reconcile(ctx(), { namespace: 'ns', name: 'p' });
    assert.deepEqual(written.map((p) => p.metadata.resourceVersion), ['5', '7']);
  });

  test('other errors propagate for a rate-limited retry; a vanished pod is done', async () => {
    const { reconciler } = harness([new StatusError(500, 'InternalError', 'boom')], gated('5'), gated('5'));
    await assert.rejects(reconciler.reconcile(ctx(), { namespace: 'ns', name: 'p' }), /boom/);
    const gone = harness([], undefined, gated('5'));
    await gone.reconciler.reconcile(ctx(), { namespace: 'ns', name: 'p' });
    assert.equal(gone.written.length, 0);
  });
});
