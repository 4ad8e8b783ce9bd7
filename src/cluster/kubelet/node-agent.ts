/**
 * The node half of one simulated kubelet: registers the Node (or adopts an existing one), points the
 * runtime at the node's pod CIDR, renews the node Lease every interval and re-reports node status
 * (conditions with fresh heartbeat times) at the slower report interval, as kubelet does once
 * leases carry the heartbeat.
 */
import { Nodes } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import type { FakeRuntime } from '../../daemon/cri/fake-runtime.js';
import type { ContainerEventResponse } from '../../daemon/cri/types.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/log.js';
import type { Clock } from '../../machinery/clock.js';
import { NodeLeaseKeeper } from './node-lease.js';
import { nodeInternalIp, nodeLabels, nodeObject, nodeStatus, type NodeIdentity } from './node-object.js';
import type { Node } from '../../api/core/index.js';

export interface NodeAgentOptions {
  client: Client;
  clock: Clock;
  log: Logger;
  identity: NodeIdentity;
  runtime: FakeRuntime;
  leaseDurationSeconds: number;
  leaseRenewIntervalMs: number;
  nodeStatusReportIntervalMs: number;
  onContainerEvent(event: ContainerEventResponse): void;
}

export class NodeAgent {
  readonly name: string;
  readonly hostIP: string;
  private node: Node;
  private readonly lease: NodeLeaseKeeper;
  private readonly cancels: (() => void)[] = [];
  private readonly timers = new Set<() => void>();
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly o: NodeAgentOptions) {
    this.name = o.identity.name;
    this.hostIP = nodeInternalIp(o.identity.index);
    this.node = nodeObject(o.identity, o.clock.now());
    this.lease = new NodeLeaseKeeper(o.client, () => this.node, o.leaseDurationSeconds);
  }

  get runtime(): FakeRuntime {
    return this.o.runtime;
  }

  /** The client this node writes with (its own identity in `kruise up`). */
  get client(): Client {
    return this.o.client;
  }

  async register(): Promise<void> {
    await this.o.runtime.updateRuntimeConfig({ networkConfig: { podCidr: this.node.spec!.podCIDR! } });
    this.cancels.push(this.o.runtime.getContainerEvents((e) => this.o.onContainerEvent(e)));
    await this.createOrAdopt();
    await this.reportStatus();
    await this.lease.renew(this.o.clock.now());
    this.every(this.o.leaseRenewIntervalMs, async () => { await this.lease.renew(this.o.clock.now()); });
    this.every(this.o.nodeStatusReportIntervalMs, () => this.reportStatus());
  }

  private async createOrAdopt(): Promise<void> {
    const { client } = this.o;
    try {
      this.node = await client.create(Nodes, nodeObject(this.o.identity, this.o.clock.now()));
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      this.node = await client.patch<Node>(Nodes, undefined, this.name, 'strategic', { metadata: { labels: nodeLabels(this.o.identity) } });
    }
  }

  /** Status through the status subresource (create drops it on servers that treat it as a subresource). */
  private async reportStatus(): Promise<void> {
    const status = nodeStatus(this.o.identity, this.o.clock.now(), this.node);
    this.node = await this.o.client.patch<Node>(Nodes, undefined, this.name, 'strategic', { status }, { subresource: 'status' });
  }

  private every(intervalMs: number, tick: () => Promise<void>): void {
    const schedule = () => {
      if (this.stopped) return;
      const cancel = this.o.clock.after(intervalMs, () => {
        this.timers.delete(cancel);
        const run = tick().catch((e: unknown) => this.o.log.warn({ err: e, node: this.name }, 'node heartbeat failed'))
          .finally(() => { this.pending.delete(run); schedule(); });
        this.pending.add(run);
      });
      this.timers.add(cancel);
    };
    schedule();
  }

  /** Stops heartbeats and runtime events; the Node and Lease stay (a kubelet that went away). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const cancel of [...this.cancels.splice(0), ...this.timers]) cancel();
    this.timers.clear();
    await Promise.all([...this.pending]);
  }

  /** Stops and deletes the Node and its Lease (the machine left the cluster). */
  async deregister(): Promise<void> {
    await this.stop();
    await this.lease.remove();
    try {
      await this.o.client.delete(Nodes, undefined, this.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
