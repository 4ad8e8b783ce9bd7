import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { setRootLogger } from '../../machinery/log.js';
import { Manager } from '../../runtime/manager.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { kruiseControllers } from '../index.js';
import { needsReadyCondition, setupPodReadinessController } from './index.js';
import type { Pod, PodCondition } from '../../api/core/index.js';

async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pod = (name: string, gates: string[], conditions?: PodCondition[]): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'busybox' }], readinessGates: gates.map((conditionType) => ({ conditionType })) },
  ...(conditions ? { status: { conditions } } : {}),
});

describe('pod-readiness-controller', () => {
  let cp: TestControlPlane;
  let client: Client;
  let mgr: Manager;
  before(async () => {
    if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
    cp = await startTestControlPlane();
    client = createInProcessClient(cp.plane.handler);
    mgr = new Manager({ client: createInProcessClient(cp.plane.handler), health: false, freezeCache: true });
    setupPodReadinessController(mgr);
    await mgr.start();
  });
  after(async () => {
    await mgr.stop();
    await cp.stop();
  });

  test('a pod with the KruisePodReady gate gets KruisePodReady=True with a transition time', async () => {
    await client.create(Pods, pod('gated', ['KruisePodReady']));
    const condition = await eventually('KruisePodReady condition', async () => {
      const current = await client.get<Pod>(Pods, 'default', 'gated');
      return current.status?.conditions?.find((c) => c.type === 'KruisePodReady');
    });
    assert.equal(condition.status, 'True');
    assert.match(condition.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('pods without the gate are left alone', async () => {
    await client.create(Pods, pod('plain', ['example.com/other']));
    await client.create(Pods, pod('marker', ['KruisePodReady']));
    // The gated pod is handled after the plain one was seen, so the plain one has had its chance.
    await eventually('marker pod handled', async () => {
      const current = await client.get<Pod>(Pods, 'default', 'marker');
      return current.status?.conditions?.some((c) => c.type === 'KruisePodReady') ? true : undefined;
    });
    const plain = await client.get<Pod>(Pods, 'default', 'plain');
    assert.equal(plain.status?.conditions?.some((c) => c.type === 'KruisePodReady') ?? false, false);
  });

  test('is registered in kruiseControllers, always enabled', () => {
    const reg = kruiseControllers.find((c) => c.name === 'pod-readiness-controller');
    assert.ok(reg);
    assert.equal(reg.enabled(() => false), true);
  });
});

describe('needsReadyCondition', () => {
  test('gate present, condition absent, not deleting', () => {
    assert.equal(needsReadyCondition(pod('a', ['KruisePodReady'])), true);
    assert.equal(needsReadyCondition(pod('a', ['KruisePodReady'], [{ type: 'KruisePodReady', status: 'False' }])), false);
    assert.equal(needsReadyCondition(pod('a', [])), false);
    const deleting = pod('a', ['KruisePodReady']);
    deleting.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    assert.equal(needsReadyCondition(deleting), false);
  });
});
