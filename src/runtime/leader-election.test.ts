/**
 * Leader election between managers sharing one embedded control plane, on short real durations
 * (lease 2 s, renew 1.5 s, retry 0.3 s): one leader at a time, reconciles only on the leader,
 * an immediate handover on graceful stop and one within the lease duration after a crash.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ConfigMaps, Leases } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { setRootLogger } from '../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { forSelf } from './handlers.js';
import { takeOver } from './lease.js';
import { LeaderElector } from './leader-election.js';
import { Manager } from './manager.js';
import { microTime } from '../machinery/time.js';
import type { Lease } from '../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));

const timing = { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 300 };
const leaseName = { namespace: 'default', name: 'election-test' };

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - start;
}

describe('lease records', () => {
  test('MicroTime has six fractional digits; takeOver counts transitions and keeps acquireTime on renewal', () => {
    assert.equal(microTime(Date.parse('2006-01-02T15:04:05.123Z')), '2006-01-02T15:04:05.123000Z');
    const fresh = takeOver({ metadata: { name: 'l' } }, 'a', 15, Date.parse('2024-01-01T00:00:00Z'));
    assert.deepEqual(fresh.spec, { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2024-01-01T00:00:00.000000Z', renewTime: '2024-01-01T00:00:00.000000Z', leaseTransitions: 0 });
    const renewed = takeOver(fresh, 'a', 15, Date.parse('2024-01-01T00:00:02Z'));
    assert.equal(renewed.spec!.acquireTime, '2024-01-01T00:00:00.000000Z');
    assert.equal(renewed.spec!.renewTime, '2024-01-01T00:00:02.000000Z');
    assert.equal(renewed.spec!.leaseTransitions, 0);
    const taken = takeOver(renewed, 'b', 15, Date.parse('2024-01-01T00:00:30Z'));
    assert.equal(taken.spec!.leaseTransitions, 1);
    assert.equal(taken.spec!.acquireTime, '2024-01-01T00:00:30.000000Z');
  });

  test('rejects inconsistent durations', () => {
    const base = { client: {} as Client, onStartedLeading() {}, onStoppedLeading() {} };
    assert.throws(() => new LeaderElector({ ...base, leaseDurationMs: 1000, renewDeadlineMs: 1000 }), /leaseDuration/);
    assert.throws(() => new LeaderElector({ ...base, renewDeadlineMs: 1000, retryPeriodMs: 900 }), /renewDeadline/);
    assert.match(new LeaderElector(base).identity, /^.+_[0-9a-f-]{36}$/);
  });
});

describe('leader election between managers', () => {
  let env: TestControlPlane;
  let client: Client;
  const managers: Manager[] = [];
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    for (const name of ['one', 'two', 'three']) await client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
  });
  after(async () => {
    await Promise.all(managers.map((m) => m.stop({ releaseLease: false })));
    await env.stop();
  });

  function startManager(identity: string) {
    const counter = { reconciles: 0 };
    const mgr = new Manager({
      client: createInProcessClient(env.plane.handler), health: false,
      leaderElection: { ...timing, ...leaseName, identity },
    });
    mgr.newController({ name: 'counter', reconciler: async () => { counter.reconciles++; } })
      .watches(mgr.informerFor(ConfigMaps, { namespace: 'default' }), forSelf());
    managers.push(mgr);
    void mgr.start();
    return { mgr, counter };
  }
  const lease = () => client.get<Lease>(Leases, leaseName.namespace, leaseName.name);

  test('one leader; reconciles only there; graceful handover at once; crash handover within the lease', async () => {
    const a = startManager('a');
    const b = startManager('b');
    await eventually(() => a.mgr.isLeader() || b.mgr.isLeader());
    const [leader, follower] = a.mgr.isLeader() ? [a, b] : [b, a];
    await eventually(() => leader.counter.reconciles >= 3);
    await new Promise((r) => setTimeout(r, 4 * timing.retryPeriodMs)); // several renew rounds
    assert.equal(follower.mgr.isLeader(), false, 'never two leaders');
    assert.equal(follower.counter.reconciles, 0, 'no reconcile on the follower');
    const held = await lease();
    assert.equal(held.spec!.holderIdentity, leader === a ? 'a' : 'b');
    assert.equal(held.spec!.leaseDurationSeconds, 2);
    assert.match(held.spec!.renewTime!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(held.spec!.leaseTransitions, 0);

    await leader.mgr.stop(); // graceful: releases the lease
    const gracefulMs = await eventually(() => follower.mgr.isLeader());
    assert.ok(gracefulMs < timing.leaseDurationMs, `a released lease is taken at once (${gracefulMs} ms)`);
    await eventually(() => follower.counter.reconciles >= 3);
    assert.equal((await lease()).spec!.leaseTransitions, 1);

    const c = startManager('c');
    await new Promise((r) => setTimeout(r, 3 * timing.retryPeriodMs)); // c observes the current lease
    assert.equal(c.counter.reconciles, 0);
    await follower.mgr.stop({ releaseLease: false }); // a crash: the lease just stops being renewed
    const crashMs = await eventually(() => c.mgr.isLeader());
    // Expiry runs from when c last saw the lease change, plus up to one (jittered) retry to notice.
    assert.ok(crashMs <= timing.leaseDurationMs + 3 * timing.retryPeriodMs, `taken over within the lease duration (${crashMs} ms)`);
    await eventually(() => c.counter.reconciles >= 3);
    const final = await lease();
    assert.equal(final.spec!.holderIdentity, 'c');
    assert.equal(final.spec!.leaseTransitions, 2);
  });

  test('a leader that cannot renew steps down after the renew deadline, before anyone else leads', async () => {
    let broken = false;
    const inner = createInProcessClient(env.plane.handler);
    const flaky = new Proxy(inner, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (broken ? Promise.reject(new Error('network down')) : value.apply(target, args));
      },
    });
    const log: string[] = [];
    const elector = (identity: string, client: Client) => new LeaderElector({
      client, ...timing, namespace: 'default', name: 'deadline-test', identity,
      onStartedLeading: () => log.push(`${identity} leads`), onStoppedLeading: () => log.push(`${identity} stopped`),
    });
    const x = elector('x', flaky);
    x.start();
    await eventually(() => x.isLeader());
    const y = elector('y', client);
    y.start();
    broken = true;
    const stepDownMs = await eventually(() => !x.isLeader());
    assert.ok(stepDownMs <= timing.renewDeadlineMs + timing.retryPeriodMs, `stepped down after ${stepDownMs} ms`);
    await eventually(() => y.isLeader());
    assert.deepEqual(log, ['x leads', 'x stopped', 'y leads'], 'never two leaders at once');
    await x.stop({ release: false });
    await y.stop();
    assert.equal((await client.get<Lease>(Leases, 'default', 'deadline-test')).spec!.holderIdentity, '', 'released on stop');
  });
});
