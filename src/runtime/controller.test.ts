import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../api/meta.js';
import { ConfigMaps } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { setRootLogger } from '../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { FakeClock, flush } from '../machinery/clock.js';
import { Controller, TerminalError, type ReconcileContext, type Request, type Result } from './controller.js';
import { forControllerOwner, forSelf, parseRequestKey, requestKey } from './handlers.js';
import { Informer } from './informer.js';
import { RuntimeMetrics } from './metrics.js';

setRootLogger(pino({ level: 'silent' }));

const cm = (name: string, extra: Partial<KObject['metadata']> = {}): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...extra } });

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), 'condition not reached');
}

describe('controller', () => {
  let env: TestControlPlane;
  let client: Client;
  let informer: Informer;
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    informer = new Informer({ client, type: ConfigMaps, namespace: 'default' });
    informer.start();
    await informer.waitForSync();
  });
  after(async () => { informer.stop(); await env.stop(); });

  test('request keys round-trip', () => {
    for (const req of [{ namespace: 'ns', name: 'a' }, { name: 'cluster-scoped' }]) assert.deepEqual(parseRequestKey(requestKey(req)), req);
  });

  test('outcomes: retry with backoff, terminal errors, requeueAfter, and a tagged context', async () => {
    const clock = new FakeClock();
    const metrics = new RuntimeMetrics();
    const calls: { name: string; at: number }[] = [];
    let ctxSeen: ReconcileContext | undefined;
    const outcome: Record<string, (n: number) => Result | undefined> = {
      'flaky': (n) => { if (n < 3) throw new Error('not yet'); return undefined; },
      'terminal': () => { throw new TerminalError('bad spec'); },
      'periodic': () => ({ requeueAfterMs: 60_000 }),
      'weird': () => { throw 'a string, not an Error'; },
    };
    const ctrl = new Controller({
      name: 'outcomes', clock, metrics: metrics.controller('outcomes'), queueMetrics: metrics.queue('outcomes'),
      reconciler: async (ctx: ReconcileContext, req: Request) => {
        ctxSeen = ctx;
        calls.push({ name: req.name, at: clock.now() });
        const n = calls.filter((c) => c.name === req.name).length;
        return outcome[req.name]?.(n) ?? undefined;
      },
    }).watches(informer, forSelf());
    for (const name of Object.keys(outcome)) await client.create(ConfigMaps, cm(name));
    await ctrl.start();
    const t0 = clock.now();
    await until(() => calls.length >= 4);
    assert.equal(ctxSeen!.clock, clock);
    assert.equal(ctxSeen!.signal.aborted, false);
    assert.match(ctxSeen!.reconcileId, /^[0-9a-f-]{36}$/);
    for (let i = 0; i < 100; i++) await clock.advanceAsync(1); // 100 ms of fake time, 1 ms at a time
    const times = (name: string) => calls.filter((c) => c.name === name).map((c) => c.at - t0);
    assert.deepEqual(times('flaky'), [0, 5, 15], 'retried after 5 ms, then 10 ms more, then succeeded');
    assert.deepEqual(times('terminal'), [0], 'no retry');
    assert.ok(times('weird').length >= 3, 'a thrown non-Error is retried too');
    assert.deepEqual(times('periodic'), [0]);
    await clock.advanceAsync(60_000);
    await flush();
    assert.deepEqual(times('periodic'), [0, 60_100]);
    const text = await metrics.registry.metrics();
    assert.match(text, /controller_runtime_terminal_reconcile_errors_total\{controller="outcomes"\} 1/);
    assert.match(text, /controller_runtime_reconcile_total\{controller="outcomes",result="requeue_after"\} 2/);
    assert.match(text, /workqueue_retries_total\{name="outcomes",controller="outcomes"\} \d+/);
    await ctrl.stop();
    assert.equal(ctxSeen!.signal.aborted, true, 'stop aborts the context');
    for (const name of Object.keys(outcome)) await client.delete(ConfigMaps, 'default', name);
  });

  test('forControllerOwner enqueues the owner; stop waits for the reconcile in flight', async () => {
    const owner = await client.create(ConfigMaps, cm('owner'));
    const seen: string[] = [];
    let release: () => void = () => undefined;
    let inFlight = false;
    const ctrl = new Controller({
      name: 'owners', reconciler: {
        async reconcile(_ctx, req) {
          seen.push(req.name);
          inFlight = true;
          await new Promise<void>((r) => { release = r; });
          inFlight = false;
        },
      },
    }).watches(informer, forControllerOwner('ConfigMap', ''));
    await ctrl.start();
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid!, controller: true };
    await client.create(ConfigMaps, cm('child', { ownerReferences: [ref] }));
    await until(() => inFlight);
    assert.deepEqual(seen, ['owner'], 'mapped to the owner; objects without an owner map to nothing');
    let stopped = false;
    const stopping = ctrl.stop().then(() => { stopped = true; });
    await flush();
    assert.equal(stopped, false, 'stop waits for the running reconcile');
    release();
    await stopping;
    assert.equal(inFlight, false);
    await client.delete(ConfigMaps, 'default', 'child');
    await client.delete(ConfigMaps, 'default', 'owner');
  });

  test('rejects bad options', () => {
    assert.throws(() => new Controller({ name: 'Bad Name', reconciler: async () => undefined }), /invalid controller name/);
    assert.throws(() => new Controller({ name: 'ok', workers: 0, reconciler: async () => undefined }), /workers/);
  });
});
