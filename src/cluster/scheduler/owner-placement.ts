/**
 * Where each controller's pods are, kept up to date as pods and nodes come and go: its pod count
 * per node and per zone. Default spreading reads these instead of walking every node's own maps in
 * every cycle (one small table per owner stays in cache; a thousand nodes' maps do not). A node
 * counts towards its zone only while its Node object exists.
 */
import type { NodeInfo } from './node-info.js';
import { LABEL_ZONE } from './types.js';

const NO_ZONES: ReadonlyMap<string, number> = new Map();
const NO_NODES: ReadonlyMap<NodeInfo, number> = new Map();

export class OwnerPlacement {
  private readonly nodes = new Map<string, Map<NodeInfo, number>>();
  private readonly zones = new Map<string, Map<string, number>>();

  podsByNode(uid: string): ReadonlyMap<NodeInfo, number> {
    return this.nodes.get(uid) ?? NO_NODES;
  }

  podsByZone(uid: string): ReadonlyMap<string, number> {
    return this.zones.get(uid) ?? NO_ZONES;
  }

  /** After `node.addPod` of a pod owned by `uid`. */
  podAdded(node: NodeInfo, uid: string): void {
    let counts = this.nodes.get(uid);
    if (!counts) this.nodes.set(uid, (counts = new Map()));
    counts.set(node, (counts.get(node) ?? 0) + 1);
    this.addZone(uid, zoneOf(node), 1);
  }

  /** After `node.removePod` of a pod owned by `uid`. */
  podRemoved(node: NodeInfo, uid: string): void {
    const counts = this.nodes.get(uid);
    const n = (counts?.get(node) ?? 0) - 1;
    if (n > 0) counts!.set(node, n);
    else counts?.delete(node);
    if (counts?.size === 0) this.nodes.delete(uid);
    this.addZone(uid, zoneOf(node), -1);
  }

  /** Around a change of the node (labels, or the Node object appearing or going). */
  nodeChanging(node: NodeInfo, change: () => void): void {
    const before = zoneOf(node);
    change();
    const after = zoneOf(node);
    if (before === after) return;
    for (const [uid, n] of node.owners) {
      this.addZone(uid, before, -n);
      this.addZone(uid, after, n);
    }
  }

  private addZone(uid: string, zone: string | undefined, delta: number): void {
    if (zone === undefined || delta === 0) return;
    let counts = this.zones.get(uid);
    if (!counts) this.zones.set(uid, (counts = new Map()));
    const n = (counts.get(zone) ?? 0) + delta;
    if (n > 0) counts.set(zone, n);
    else counts.delete(zone);
    if (counts.size === 0) this.zones.delete(uid);
  }
}

const zoneOf = (node: NodeInfo): string | undefined => (node.node ? node.labels[LABEL_ZONE] : undefined);
