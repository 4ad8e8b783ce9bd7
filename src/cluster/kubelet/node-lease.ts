/**
 * The node heartbeat Lease (`kube-node-lease/<node>`, coordination.k8s.io/v1): held by the node's
 * name, owned by the Node so it is garbage-collected with it, renewed every interval with a PUT
 * guarded by resourceVersion; a conflict or a missing lease is resolved by reading or creating it.
 */
import { Leases } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isConflict, isNotFound, isAlreadyExists } from '../../machinery/errors.js';
import { microTime } from '../../machinery/time.js';
import type { Lease, Node } from '../../api/core/index.js';

export const nodeLeaseNamespace = 'kube-node-lease';

export function nodeLease(node: Node, leaseDurationSeconds: number, now: number): Lease {
  const name = node.metadata.name!;
  return {
    apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
    metadata: {
      name, namespace: nodeLeaseNamespace,
      ownerReferences: node.metadata.uid ? [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid }] : undefined,
    },
    spec: { holderIdentity: name, leaseDurationSeconds, renewTime: microTime(now) },
  };
}

export class NodeLeaseKeeper {
  private current?: Lease;

  constructor(private readonly client: Client, private readonly node: () => Node, private readonly leaseDurationSeconds: number) {}

  /** Renews (or creates) the lease as of `now`; returns the stored lease. */
  async renew(now: number): Promise<Lease> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        this.current = this.current ? await this.update(now) : await this.ensure(now);
        return this.current;
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e) && !isAlreadyExists(e)) throw e;
        this.current = undefined; // re-read on the next attempt
      }
    }
    throw new Error(`could not renew the lease of node ${this.node().metadata.name}`);
  }

  private async update(now: number): Promise<Lease> {
    const lease = structuredClone(this.current!);
    lease.spec = { ...lease.spec, holderIdentity: this.node().metadata.name, leaseDurationSeconds: this.leaseDurationSeconds, renewTime: microTime(now) };
    return this.client.update(Leases, lease);
  }

  private async ensure(now: number): Promise<Lease> {
    const name = this.node().metadata.name!;
    try {
      this.current = await this.client.get<Lease>(Leases, nodeLeaseNamespace, name);
      return this.update(now);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    return this.client.create(Leases, nodeLease(this.node(), this.leaseDurationSeconds, now));
  }

  async remove(): Promise<void> {
    try {
      await this.client.delete(Leases, nodeLeaseNamespace, this.node().metadata.name!);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    this.current = undefined;
  }
}
