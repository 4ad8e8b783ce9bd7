/**
 * A tiny controller end to end through the manager: it keeps a Secret next to every ConfigMap
 * labelled `copy-team`, carrying the same label and owned by the ConfigMap. It reads only from the
 * (frozen) cache, uses expectations for its creates, records events, and the health server serves
 * readiness and the controller-runtime metrics.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../api/meta.js';
import { ConfigMaps, Events, Secrets } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { setRootLogger } from '../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import type { ReconcileContext, Request } from './controller.js';
import { forControllerOwner, forSelf, requestKey } from './handlers.js';
import { controllerRef } from './indexers.js';
import { Manager } from './manager.js';

setRootLogger(pino({ level: 'silent' }));
const label = 'copy-team';

function setupLabelCopier(mgr: Manager) {
  const configMaps = mgr.informerFor(ConfigMaps, { namespace: 'default' });
  const secrets = mgr.informerFor(Secrets, { namespace: 'default' });
  const { scale } = mgr.newExpectations('label-copier');
  const events = mgr.eventRecorder('label-copier');
  secrets.addEventHandler({
    onAdd: (s) => { if (controllerRef(s)) scale.observe(requestKey({ namespace: s.metadata.namespace, name: controllerRef(s)!.name }), 'create', s.metadata.name!); },
  });
  async function reconcile(ctx: ReconcileContext, req: Request) {
    const key = requestKey(req);
    if (!scale.satisfied(key)) return { requeueAfterMs: scale.waitMs(key) };
    const cm = configMaps.get(req.namespace, req.name);
    const team = cm?.metadata.labels?.[label];
    if (!cm || team === undefined || cm.metadata.deletionTimestamp) return; // the garbage collector removes the Secret
    const secret = secrets.get(req.namespace, req.name);
    if (!secret) {
      const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: cm.metadata.name!, uid: cm.metadata.uid!, controller: true, blockOwnerDeletion: true };
      scale.expect(key, 'create', req.name);
      try {
        await mgr.client.create(Secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: req.name, namespace: req.namespace, labels: { [label]: team }, ownerReferences: [owner] } });
      } catch (e) {
        scale.observe(key, 'create', req.name); // it will not appear
        throw e;
      }
      events.event(cm, 'Normal', 'SecretCreated', `created secret ${req.name}`);
      ctx.log.info('created secret');
    } else if (secret.metadata.labels?.[label] !== team) {
      await mgr.client.patch(Secrets, req.namespace, req.name, 'merge', { metadata: { labels: { [label]: team } } });
      events.event(cm, 'Normal', 'LabelCopied', `copied ${label}=${team}`);
    }
  }
  mgr.newController({ name: 'label-copier', reconciler: reconcile, workers: 2 })
    .watches(configMaps, forSelf())
    .watches(secrets, forControllerOwner('ConfigMap', ''));
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('manager', () => {
  let env: TestControlPlane;
  let client: Client;
  let mgr: Manager;
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    mgr = new Manager({ client: createInProcessClient(env.plane.handler), freezeCache: true });
    setupLabelCopier(mgr);
  });
  after(async () => {
    await mgr.stop();
    await env.stop();
  });

  const secretTeam = async (name: string) => {
    const s = await client.get(Secrets, 'default', name).catch(() => undefined);
    return s?.metadata.labels?.[label];
  };

  test('copies labels from ConfigMaps to owned Secrets, with events, health and metrics', async () => {
    await client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'existing', namespace: 'default', labels: { [label]: 'red' } } });
    await mgr.start();
    const { port } = mgr.healthAddress()!;
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);
    assert.equal((await get('/healthz')).status, 200);
    await eventually(async () => (await get('/readyz')).status === 200);
    await eventually(async () => (await secretTeam('existing')) === 'red');

    const cm = await client.create<KObject>(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fresh', namespace: 'default', labels: { [label]: 'blue' } } });
    await eventually(async () => (await secretTeam('fresh')) === 'blue');
    const owned = await client.get(Secrets, 'default', 'fresh');
    assert.equal(controllerRef(owned)?.uid, cm.metadata.uid);
    await client.patch(ConfigMaps, 'default', 'fresh', 'merge', { metadata: { labels: { [label]: 'green' } } });
    await eventually(async () => (await secretTeam('fresh')) === 'green');
    await client.patch(Secrets, 'default', 'fresh', 'merge', { metadata: { labels: { [label]: 'tampered' } } });
    await eventually(async () => (await secretTeam('fresh')) === 'green'); // a change to the Secret maps back to its owner

    await eventually(async () => {
      const reasons = (await client.list(Events, { namespace: 'default', fieldSelector: 'involvedObject.name=fresh' })).items.map((e) => e.reason);
      return reasons.includes('SecretCreated') && reasons.includes('LabelCopied');
    });
    const metrics = await (await get('/metrics')).text();
    assert.match(metrics, /controller_runtime_reconcile_total\{controller="label-copier",result="success"\} [1-9]/);
    assert.match(metrics, /controller_runtime_reconcile_errors_total\{controller="label-copier"\} 0/, 'no errors: never mutated the frozen cache, never created twice');
    assert.match(metrics, /workqueue_adds_total\{name="label-copier",controller="label-copier"\} [1-9]/);
    assert.match(metrics, /workqueue_depth\{name="label-copier",controller="label-copier"\} 0/);
    for (const name of ['controller_runtime_reconcile_time_seconds_bucket', 'workqueue_queue_duration_seconds_bucket', 'workqueue_work_duration_seconds_bucket', 'workqueue_retries_total']) {
      assert.ok(metrics.includes(name), name);
    }
    assert.equal((await get('/nope')).status, 404);
  });
});
