/**
 * One node as the scheduler sees it: the Node's labels, effective taints and allocatable, plus the
 * running sums over the pods on it (bound or assumed): requested resources, used host ports, pods
 * with affinity terms, and pods per controller owner (for spreading).
 */
import { hasPodAffinity, type PodInfo } from './pod-info.js';
import { HostPortSet } from './host-ports.js';
import { addInto, allocatableOf, emptyResources, type Allocatable, type Resources } from './resources.js';
import { effectiveTaints } from './taints.js';
import type { Node, Taint } from '../../api/core/index.js';

export class NodeInfo {
  /** Undefined while pods are known to be bound to a node the scheduler has not seen yet. */
  node?: Node;
  labels: Record<string, string> = {};
  taints: Taint[] = [];
  unschedulable = false;
  allocatable: Allocatable = allocatableOf(undefined);
  readonly requested: Resources = emptyResources();
  readonly nonZeroRequested: Resources = emptyResources();
  readonly pods = new Map<string, PodInfo>();
  readonly ports = new HostPortSet();
  /** Pods with any pod affinity or anti-affinity term (the only ones inter-pod checks look at). */
  readonly podsWithAffinity = new Map<string, PodInfo>();
  readonly podsWithRequiredAntiAffinity = new Map<string, PodInfo>();
  /** Controller owner uid -> pods on this node. */
  readonly owners = new Map<string, number>();

  constructor(readonly name: string, node?: Node) {
    if (node) this.setNode(node);
  }

  setNode(node: Node): void {
    this.node = node;
    this.labels = node.metadata.labels ?? {};
    this.taints = effectiveTaints(node);
    this.unschedulable = node.spec?.unschedulable === true;
    this.allocatable = allocatableOf(node.status?.allocatable);
  }

  addPod(p: PodInfo): void {
    if (this.pods.has(p.key)) this.removePod(p.key);
    this.pods.set(p.key, p);
    this.account(p, 1);
  }

  removePod(key: string): PodInfo | undefined {
    const p = this.pods.get(key);
    if (!p) return undefined;
    this.pods.delete(key);
    this.account(p, -1);
    return p;
  }

  private account(p: PodInfo, sign: 1 | -1): void {
    addInto(this.requested, p.requests, sign);
    addInto(this.nonZeroRequested, p.nonZero, sign);
    this.ports.add(p.ports, sign);
    if (hasPodAffinity(p)) {
      if (sign > 0) this.podsWithAffinity.set(p.key, p);
      else this.podsWithAffinity.delete(p.key);
    }
    if (p.requiredAntiAffinity.length > 0) {
      if (sign > 0) this.podsWithRequiredAntiAffinity.set(p.key, p);
      else this.podsWithRequiredAntiAffinity.delete(p.key);
    }
    if (p.ownerUid) {
      const n = (this.owners.get(p.ownerUid) ?? 0) + sign;
      if (n > 0) this.owners.set(p.ownerUid, n);
      else this.owners.delete(p.ownerUid);
    }
  }
}
