/**
 * Simulated nodes with `criSocketDir`: each node's runtime is a CRI endpoint on which a pod's
 * sandbox and containers appear as the kubelet made them, through connectCri and through crictl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { connectCri, type CriClient } from '../../daemon/cri/grpc/client.js';
import { KubeletLabels } from '../../daemon/cri/types.js';
import { FakeClock } from '../../machinery/clock.js';
import { crictlAt, findCrictl } from '../../testing/crictl.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { createSimulatedNodes, type SimulatedNodes } from './index.js';
import type { Pod } from '../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let nodes: SimulatedNodes;
let cri: CriClient;
let pod: Pod;

/** Polls (10 ms of real time, no fake time passing) until the pod is Ready. */
async function readyPod(namespace: string, name: string): Promise<Pod> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
    const p = await client.get<Pod>(Pods, namespace, name);
    if (p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) return p;
  }
  throw new Error(`${namespace}/${name} not Ready`);
}

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cri' } } as KObject);
  const criSocketDir = path.join(env.dir, 'cri');
  await mkdir(criSocketDir, { mode: 0o700 });
  nodes = createSimulatedNodes({ client, count: 2, clock: new FakeClock(Date.now()), criSocketDir });
  await nodes.start();
  await client.create(Pods, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'cri' },
    spec: { nodeName: 'kruise-node-1', containers: [{ name: 'app', image: 'nginx:1.25' }, { name: 'log', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] },
  } as Pod);
  pod = await readyPod('cri', 'web-0');
  cri = connectCri(nodes.criSocket('kruise-node-1')!);
});

after(async () => {
  cri.close();
  await nodes.stop();
  await env.stop();
});

describe('a node runtime over its CRI socket', () => {
  test('each node serves <criSocketDir>/<node>.sock', () => {
    assert.equal(nodes.criSocket('kruise-node-0'), path.join(env.dir, 'cri', 'kruise-node-0.sock'));
    assert.equal(existsSync(nodes.criSocket('kruise-node-1')!), true);
    assert.equal(nodes.criSocket('kruise-node-9'), undefined);
  });

  test("the pod's sandbox and containers carry the kubelet's labels and the pod status's container ids", async () => {
    const uid = pod.metadata.uid!;
    const [sandbox] = await cri.listPodSandbox({ labelSelector: { [KubeletLabels.podUid]: uid } });
    assert.deepEqual(sandbox.metadata, { name: 'web-0', namespace: 'cri', uid, attempt: 0 });
    assert.equal((await cri.podSandboxStatus(sandbox.id)).network?.ip, pod.status!.podIP);

    const containers = await cri.listContainers({ labelSelector: { [KubeletLabels.podUid]: uid } });
    assert.deepEqual(containers.map((c) => c.metadata.name).sort(), ['app', 'log']);
    for (const c of containers) {
      assert.equal(c.podSandboxId, sandbox.id);
      assert.equal(c.state, 'CONTAINER_RUNNING');
      assert.deepEqual([c.labels[KubeletLabels.podName], c.labels[KubeletLabels.podNamespace], c.labels[KubeletLabels.containerName]],
        ['web-0', 'cri', c.metadata.name]);
      const status = pod.status!.containerStatuses!.find((s) => s.name === c.metadata.name)!;
      assert.equal(status.containerID, `containerd://${c.id}`);
      assert.equal(status.imageID, c.imageRef);
    }
    const otherNode = connectCri(nodes.criSocket('kruise-node-0')!);
    assert.deepEqual(await otherNode.listContainers(), [], 'the other node runs none of them');
    otherNode.close();
  });

  test('removing a node closes its socket', async () => {
    const socket = nodes.criSocket('kruise-node-0')!;
    await nodes.removeNode('kruise-node-0');
    assert.equal(nodes.criSocket('kruise-node-0'), undefined);
    assert.equal(existsSync(socket), false);
  });
});

describe('crictl against a simulated node', () => {
  test('version, pods, ps -a, images and inspect show the pod and its containers', async (t) => {
    const found = await findCrictl();
    if (!found.binary) return t.skip(found.reason);
    const crictl = crictlAt(found.binary, nodes.criSocket('kruise-node-1')!);
    const run = async (...args: string[]) => {
      const r = await crictl(args);
      assert.equal(r.code, 0, `crictl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    assert.match(await run('version'), /RuntimeName:\s+containerd\nRuntimeVersion:\s+v1\.7\.\d+\nRuntimeApiVersion:\s+v1/);
    assert.match(await run('pods'), /Ready\s+web-0\s+cri\s+0/);
    const ps = await run('ps', '-a');
    const app = pod.status!.containerStatuses!.find((s) => s.name === 'app')!.containerID!.replace('containerd://', '');
    assert.match(ps, new RegExp(`${app.slice(0, 13)}\\s+nginx:1\\.25\\s.*Running\\s+app\\s+0\\s+\\w+\\s+web-0\\s+cri`));
    assert.match(ps, /Running\s+log\s+0\s+\w+\s+web-0\s+cri/);
    assert.match(await run('images'), /docker\.io\/library\/nginx\s+1\.25\s/);
    const inspect = JSON.parse(await run('inspect', app)) as { status: { id: string; state: string; labels: Record<string, string> } };
    assert.deepEqual([inspect.status.id, inspect.status.state, inspect.status.labels[KubeletLabels.podName]], [app, 'CONTAINER_RUNNING', 'web-0']);
  });
});
