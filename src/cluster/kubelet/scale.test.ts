/**
 * Scale: 100 nodes and 1,000 pods with zero delays against the embedded control plane (in-process
 * client, real clock). Reports pods per second from the first create to the last pod Ready.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { startTestControlPlane } from '../../testing/control-plane.js';
import { createSimulatedNodes } from './index.js';
import type { Pod } from '../../api/core/index.js';

const NODES = 100;
const PODS = 1000;

test(`${PODS} pods on ${NODES} nodes become Ready`, async () => {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const nodes = createSimulatedNodes({ client, count: NODES });
  try {
    let t = performance.now();
    await nodes.start();
    const registerMs = performance.now() - t;
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scale' } } as KObject);
    const readyNames = new Set<string>();
    let allReady!: () => void;
    const done = new Promise<void>((resolve) => { allReady = resolve; });
    const watch = client.watch<Pod>(Pods, { namespace: 'scale' }, {
      onEvent: ({ object: p }) => {
        if (p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) readyNames.add(p.metadata.name!);
        if (readyNames.size === PODS) allReady();
      },
      onClose: () => undefined,
    });
    t = performance.now();
    for (let i = 0; i < PODS; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => client.create(Pods, {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i + j}`, namespace: 'scale' },
        spec: { nodeName: `kruise-node-${(i + j) % NODES}`, containers: [{ name: 'app', image: 'nginx:1.25' }] },
      } as Pod)));
    }
    await done;
    const seconds = (performance.now() - t) / 1000;
    watch.stop();
    console.log(`# ${NODES} nodes registered in ${(registerMs / 1000).toFixed(2)} s; ${PODS} pods Ready in ${seconds.toFixed(2)} s = ${(PODS / seconds).toFixed(0)} pods/s`);
    const ips = new Set((await client.list<Pod>(Pods, { namespace: 'scale' })).items.map((p) => p.status!.podIP));
    assert.equal(ips.size, PODS);
  } finally {
    await nodes.stop();
    await env.stop();
  }
});
