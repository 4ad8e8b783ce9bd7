/**
 * Node health as the node lifecycle controller judges it: a node is heard from when its Lease in
 * kube-node-lease is renewed or its Ready condition gets a new heartbeat. Times are taken from the
 * controller's own clock when the change is observed (never from the kubelet's timestamps, which
 * may be skewed), and a node first seen counts as heard from then, as upstream's probeTimestamp does.
 */
import { rfc3339 } from '../../../machinery/time.js';
import type { Lease, Node, NodeCondition } from '../../../api/core/index.js';
import type { Clock } from '../../../machinery/clock.js';

interface Observed {
  probeTime: number;
  renewTime?: string;
  heartbeat?: string;
}

export class NodeHealthTracker {
  private readonly nodes = new Map<string, Observed>();

  constructor(private readonly clock: Clock) {}

  private touch(name: string, change: Partial<Observed>, changed: (o: Observed) => boolean): void {
    const now = this.clock.now();
    const o = this.nodes.get(name);
    if (!o) this.nodes.set(name, { probeTime: now, ...change });
    else if (changed(o)) Object.assign(o, change, { probeTime: now });
  }

  observeLease(lease: Lease): void {
    const renewTime = lease.spec?.renewTime;
    this.touch(lease.metadata.name!, { renewTime }, (o) => renewTime !== undefined && renewTime !== o.renewTime);
  }

  observeNode(node: Node): void {
    const heartbeat = node.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime;
    this.touch(node.metadata.name!, { heartbeat }, (o) => heartbeat !== undefined && heartbeat !== o.heartbeat);
  }

  /** When the node was last heard from (first seen counts); undefined for a node never observed. */
  probeTime(name: string): number | undefined {
    return this.nodes.get(name)?.probeTime;
  }

  forget(name: string): void {
    this.nodes.delete(name);
  }
}

/** The conditions a kubelet owns and the controller marks Unknown when the kubelet goes silent. */
export const kubeletConditionTypes = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/**
 * The node's conditions after `silentFor` of silence (tryUpdateNodeHealth): every kubelet condition
 * Unknown, keeping its last heartbeat; conditions never posted are added as NeverUpdated. Undefined
 * when nothing changes (all of them already Unknown).
 */
export function silentNodeConditions(node: Node, now: number): NodeCondition[] | undefined {
  const conditions = [...(node.status?.conditions ?? [])];
  let changed = false;
  for (const type of kubeletConditionTypes) {
    const i = conditions.findIndex((c) => c.type === type);
    if (i < 0) {
      conditions.push({
        type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
        lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: rfc3339(now),
      });
      changed = true;
    } else if (conditions[i].status !== 'Unknown') {
      conditions[i] = {
        ...conditions[i], status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: rfc3339(now),
      };
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

/** How long a node may stay silent: the startup grace until it ever posted Ready, the grace period after. */
export function graceFor(node: Node, gracePeriodMs: number, startupGracePeriodMs: number): number {
  return node.status?.conditions?.some((c) => c.type === 'Ready') ? gracePeriodMs : startupGracePeriodMs;
}
