/**
 * ControllerBuilder against the embedded control plane: what each declaration wires (shared
 * informers, indexes, the owner mapping, scale expectations, predicates, per-event mappings) and the
 * context the reconciler is built from. Reconciles are awaited as they happen; time is a FakeClock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../api/meta.js';
import { ConfigMaps, Secrets } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { setRootLogger } from '../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import type { BuilderContext, Informers } from './builder.js';
import { FakeClock } from '../machinery/clock.js';
import { requestKey, type Request } from './handlers.js';
import { byLabel, IndexNames } from './indexers.js';
import { Manager } from './manager.js';

setRootLogger(pino({ level: 'silent' }));

interface ConfigMap extends KObject { data?: Record<string, string> }
interface Secret extends KObject { type?: string }
interface Caches { parents: ConfigMap; children: Secret }

const ns = 'default';
const object = (kind: string, name: string, metadata: Partial<KObject['metadata']> = {}): KObject => ({ apiVersion: 'v1', kind, metadata: { name, namespace: ns, ...metadata } });

/** The requests a reconciler saw, and a promise for the next one of a given name. */
function recordingReconciler() {
  const seen: string[] = [];
  const waiting = new Map<string, () => void>();
  return {
    seen,
    reconcile: async (_ctx: unknown, req: Request) => {
      seen.push(req.name);
      waiting.get(req.name)?.();
    },
    next: (name: string) => new Promise<void>((resolve) => waiting.set(name, resolve)),
  };
}

describe('controller builder', () => {
  let env: TestControlPlane;
  let client: Client;
  const managers: Manager[] = [];
  const newManager = (clock = new FakeClock()) => {
    const mgr = new Manager({ client, clock, health: false, freezeCache: true });
    managers.push(mgr);
    return mgr;
  };
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
  });
  after(async () => {
    for (const mgr of managers) await mgr.stop();
    await env.stop();
  });

  test('for, owns and complete: typed shared informers, owner mapping, indexes and scale expectations', { timeout: 20_000 }, async () => {
    const clock = new FakeClock();
    const mgr = newManager(clock);
    const r = recordingReconciler();
    let built: BuilderContext<Informers<Caches, keyof Caches>> | undefined;
    const controller = mgr.controllerFor<Caches>('copier', { workers: 1, expectationsName: 'copier-expectations' })
      .for('parents', ConfigMaps, { selection: { namespace: ns }, indexes: ['namespace'] })
      .owns('children', Secrets, { selection: { namespace: ns }, expectations: 'scale' })
      .complete((ctx) => {
        built = ctx;
        return r.reconcile;
      });
    assert.equal(controller.name, 'copier');
    const { informers: { parents, children }, expectations: { scale } } = built!;
    assert.equal(built!.client, mgr.client);
    assert.equal(parents, mgr.informerFor(ConfigMaps, { namespace: ns }), 'the manager\'s shared informer');
    assert.deepEqual(parents.byIndex(IndexNames.namespace, ns), [], 'namespace index asked for');
    assert.deepEqual(children.byIndex(IndexNames.controllerUid, 'none'), [], 'owns() indexes by controller UID');

    await mgr.start();
    const parentSeen = r.next('parent');
    const parent = await client.create(ConfigMaps, object('ConfigMap', 'parent'));
    await parentSeen;

    const key = requestKey({ namespace: ns, name: 'parent' });
    scale.expect(key, 'create', 'child');
    const ownerSeen = r.next('parent');
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: parent.metadata.uid!, controller: true };
    await client.create(Secrets, object('Secret', 'child', { ownerReferences: [owner] }));
    await ownerSeen;
    assert.ok(scale.satisfied(key), 'the child appearing observed the expected create');
    assert.deepEqual(children.byIndex(IndexNames.controllerUid, parent.metadata.uid!).map((s) => s.metadata.name), ['child']);
    assert.ok(!r.seen.includes('child'), 'owned objects enqueue their owner, not themselves');

    scale.expect(key, 'create', 'never');
    clock.advance(5 * 60_000);
    assert.ok(scale.satisfied(key), 'timed out');
    assert.match(await mgr.metrics.registry.metrics(), /kruise_expectations_leaked_total\{controller="copier-expectations"\} 1/);
    await mgr.stop();
    await client.delete(Secrets, ns, 'child');
    await client.delete(ConfigMaps, ns, 'parent');
  });

  test('when, watches with a per-event mapping, and observes', { timeout: 20_000 }, async () => {
    const mgr = newManager();
    const r = recordingReconciler();
    let doomedAdded: () => void = () => undefined;
    const doomedObserved = new Promise<void>((resolve) => { doomedAdded = resolve; });
    mgr.controllerFor<Caches>('watcher')
      .for('parents', ConfigMaps, { selection: { namespace: ns }, when: (cm) => cm.metadata.labels?.skip !== 'yes' })
      .watches('children', Secrets, ({ informers }) => ({
        onDelete: (s) => (informers.parents.get(ns, 'marker') ? [{ namespace: ns, name: `deleted-${s.metadata.name}` }] : []),
      }), { selection: { namespace: ns } })
      .observes('children', () => ({ onAdd: (s) => { if (s.metadata.name === 'doomed') doomedAdded(); } }))
      .complete(() => r.reconcile);
    await mgr.start();
    await client.create(Secrets, object('Secret', 'doomed'));
    await doomedObserved;
    await client.create(ConfigMaps, object('ConfigMap', 'skipped', { labels: { skip: 'yes' } }));
    const markerSeen = r.next('marker');
    await client.create(ConfigMaps, object('ConfigMap', 'marker'));
    await markerSeen;
    assert.deepEqual(r.seen, ['marker'], 'one worker, one queue: neither the skipped ConfigMap nor the added Secret enqueued anything');
    const deletedSeen = r.next('deleted-doomed');
    await client.delete(Secrets, ns, 'doomed');
    await deletedSeen;
    await mgr.stop();
    for (const name of ['skipped', 'marker']) await client.delete(ConfigMaps, ns, name);
  });

  test('indexes are shared: a second controller asking for the same ones adds nothing', () => {
    const mgr = newManager();
    const team = byLabel('team');
    for (const name of ['first', 'second']) {
      mgr.controllerFor<Caches>(name)
        .for('parents', ConfigMaps, { indexes: ['namespace', 'controllerUid'] })
        .withIndex('parents', IndexNames.label('team'), team)
        .complete(() => async () => undefined);
    }
    assert.deepEqual(mgr.informerFor(ConfigMaps).byIndex(IndexNames.label('team'), 'red'), []);
  });

  test('rejects declarations out of order', () => {
    const mgr = newManager();
    const reconciler = () => async () => undefined;
    assert.throws(() => mgr.controllerFor<Caches>('orphan').owns('children', Secrets), /owns needs for\(\) first/);
    assert.throws(() => mgr.controllerFor<Caches>('headless').reads('children', Secrets).complete(reconciler), /complete needs for\(\) first/);
    assert.throws(() => mgr.controllerFor<Caches>('twice').for('parents', ConfigMaps).for('children', Secrets), /for\(\) called twice/);
    const builder = mgr.controllerFor<Caches>('done').for('parents', ConfigMaps);
    builder.complete(reconciler);
    assert.throws(() => builder.complete(reconciler), /complete\(\) called twice/);
    // Declaring a name twice, or using one not declared, does not type-check.
    // @ts-expect-error parents is declared already
    assert.throws(() => mgr.controllerFor<Caches>('dup').for('parents', ConfigMaps).reads('parents', ConfigMaps), /parents declared twice/);
    // @ts-expect-error children is not declared
    assert.throws(() => mgr.controllerFor<Caches>('undeclared').for('parents', ConfigMaps).observes('children', () => ({})), /children not declared/);
  });
});
