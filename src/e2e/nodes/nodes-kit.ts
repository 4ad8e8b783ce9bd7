/**
 * Test kit for the node obligations K1-K12 (docs/design/simulated-nodes.md §19): one embedded plane
 * per test file with simulated nodes serving their runtimes on CRI sockets, the scheduler and the
 * core controllers, all on one fake clock; a CRI client per node (connectCri, over the socket) and
 * the pod waits of kubelet-env (`podWhere` polls without moving time, `advanceUntil` steps it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { Pods } from '../../api/resource-type.js';
import { setupCoreControllers } from '../../cluster/controllers/index.js';
import type { SimulatedNodesOptions } from '../../cluster/kubelet/index.js';
import { createScheduler } from '../../cluster/scheduler/index.js';
import { connectCri, type CriClient } from '../../daemon/cri/grpc/client.js';
import { KubeletLabels, type ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import { setRootLogger } from '../../machinery/log.js';
import { Manager } from '../../runtime/manager.js';
import { startKubeletEnv, type KubeletEnv } from '../../testing/kubelet-env.js';
import type { Container, Pod } from '../../api/core/index.js';

export interface NodesEnv extends KubeletEnv {
  /** The node's runtime over its CRI socket (one client per node, closed by stop). */
  cri(node?: string): CriClient;
  /** The pod's containers as its node's runtime reports them (ContainerStatus of every container labelled with its uid), oldest attempt first. */
  criContainers(pod: Pod): Promise<CriContainerStatus[]>;
  /** Creates a pod in `default` and returns it as stored. */
  createPod(name: string, spec: Partial<Pod['spec']>, meta?: { annotations?: Record<string, string>; labels?: Record<string, string> }): Promise<Pod>;
}

export async function startNodesEnv(options: Partial<Omit<SimulatedNodesOptions, 'client' | 'clock' | 'criSocketDir'>> = {}): Promise<NodesEnv> {
  if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
  const socketDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-nodes-'));
  const k = await startKubeletEnv({ namePrefix: 'kruise-node-', ...options, criSocketDir: socketDir });
  const scheduler = createScheduler({ client: k.client, clock: k.clock, seed: 1 });
  const manager = new Manager({ client: k.client, clock: k.clock, health: false, leaderElection: false });
  setupCoreControllers(manager);
  await Promise.all([scheduler.start(), manager.start()]);
  const clients = new Map<string, CriClient>();
  const cri = (node = k.node): CriClient => {
    let c = clients.get(node);
    if (!c) {
      const socket = k.nodes.criSocket(node);
      if (!socket) throw new Error(`no CRI socket for node ${node}`);
      c = connectCri(socket);
      clients.set(node, c);
    }
    return c;
  };
  return {
    ...k,
    cri,
    async criContainers(pod) {
      const runtime = cri(pod.spec.nodeName);
      const listed = await runtime.listContainers({ labelSelector: { [KubeletLabels.podUid]: pod.metadata.uid! } });
      const statuses = await Promise.all(listed.map((c) => runtime.containerStatus(c.id)));
      return statuses.sort((a, b) => a.metadata.attempt - b.metadata.attempt || a.createdAt - b.createdAt);
    },
    createPod(name, spec, meta = {}) {
      return k.client.create<Pod>(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...meta }, spec: { containers: [], ...spec } });
    },
    async stop() {
      for (const c of clients.values()) c.close();
      await manager.stop();
      await scheduler.stop();
      await k.stop();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/** A container that runs until stopped. */
export const server = (name = 'app', image = 'nginx:1.25', extra: Partial<Container> = {}): Container => ({ name, image, ...extra });
/** A busybox container running `command`. */
export const busybox = (name: string, command: string[], extra: Partial<Container> = {}): Container => ({ name, image: 'busybox:1.36', command, ...extra });
