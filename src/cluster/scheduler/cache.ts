/**
 * The scheduler's view of the cluster: NodeInfos built from the node and pod informers, plus pods it
 * has "assumed" onto a node (decided, binding under way) so the next decision already sees their
 * resources, ports and labels. The informer's copy of a bound pod replaces the assumed one; a failed
 * binding forgets it. Pure state: the loop feeds it events.
 */
import { objectKey } from '../../api/meta.js';
import type { ClusterView } from './find-node.js';
import { NodeInfo } from './node-info.js';
import { OwnerPlacement } from './owner-placement.js';
import { hasPodAffinity, podInfo, rebind, type NamespaceLabels, type PodInfo } from './pod-info.js';
import type { Node, Pod } from '../../api/core/index.js';

const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

export class SchedulerCache implements ClusterView {
  private readonly infos = new Map<string, NodeInfo>();
  private list: NodeInfo[] | undefined;
  /** Pod key -> node it occupies (bound or assumed). */
  private readonly placement = new Map<string, string>();
  private readonly assumed = new Set<string>();
  private readonly owners = new OwnerPlacement();
  private antiAffinityPods = 0;
  private affinityPods = 0;

  constructor(public namespaceLabels: NamespaceLabels = () => undefined) {}

  get nodes(): readonly NodeInfo[] {
    return (this.list ??= [...this.infos.values()].filter((i) => i.node !== undefined));
  }

  get anyRequiredAntiAffinity(): boolean {
    return this.antiAffinityPods > 0;
  }

  get anyPodAffinity(): boolean {
    return this.affinityPods > 0;
  }

  ownerPodsByNode(uid: string): ReadonlyMap<NodeInfo, number> {
    return this.owners.podsByNode(uid);
  }

  ownerPodsByZone(uid: string): ReadonlyMap<string, number> {
    return this.owners.podsByZone(uid);
  }

  nodeInfo(name: string): NodeInfo | undefined {
    return this.infos.get(name);
  }

  setNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const info = this.infos.get(name);
    if (!info?.node) this.list = undefined; // a new candidate
    if (!info) this.infos.set(name, new NodeInfo(name, node));
    else this.owners.nodeChanging(info, () => info.setNode(node));
  }

  deleteNode(name: string): void {
    const info = this.infos.get(name);
    if (!info) return;
    // Pods still bound to it keep counting until they go; the node itself is no longer a candidate.
    this.owners.nodeChanging(info, () => { info.node = undefined; });
    if (info.pods.size === 0) this.infos.delete(name);
    this.list = undefined;
  }

  /** A pod from the informer: bound pods are placed (confirming an assumed copy), others ignored. */
  setPod(pod: Pod): void {
    const key = objectKey(pod);
    const nodeName = pod.spec?.nodeName;
    if (isTerminal(pod)) return this.deletePod(key);
    if (!nodeName) return; // pending; if assumed, the binding is still in flight
    const assumed = this.assumed.has(key) ? this.infos.get(this.placement.get(key)!)?.pods.get(key) : undefined;
    this.assumed.delete(key);
    const sameObject = assumed && assumed.pod.metadata.uid === pod.metadata.uid;
    this.place(key, nodeName, sameObject ? rebind(assumed, pod) : podInfo(pod));
  }

  deletePod(key: string): void {
    const nodeName = this.placement.get(key);
    if (nodeName === undefined) return;
    this.placement.delete(key);
    this.assumed.delete(key);
    const info = this.infos.get(nodeName);
    const removed = info?.removePod(key);
    if (removed) this.count(removed, -1);
    if (info && removed?.ownerUid) this.owners.podRemoved(info, removed.ownerUid);
    if (info && !info.node && info.pods.size === 0) this.infos.delete(nodeName);
  }

  /** Reserves `nodeName` for `pod` until the informer shows it bound or `forget` is called. */
  assume(pod: Pod, nodeName: string): void {
    const key = objectKey(pod);
    const bound: Pod = { ...pod, spec: { ...pod.spec, nodeName } };
    this.place(key, nodeName, rebind(podInfo(pod), bound));
    this.assumed.add(key);
  }

  /** Drops an assumed pod (its binding failed); a pod the informer already confirmed stays. */
  forget(key: string): void {
    if (this.assumed.has(key)) this.deletePod(key);
  }

  isAssumed(key: string): boolean {
    return this.assumed.has(key);
  }

  /** The node a pod occupies in the cache, bound or assumed. */
  nodeOf(key: string): string | undefined {
    return this.placement.get(key);
  }

  private place(key: string, nodeName: string, info: PodInfo): void {
    if (this.placement.has(key)) this.deletePod(key);
    let node = this.infos.get(nodeName);
    if (!node) this.infos.set(nodeName, (node = new NodeInfo(nodeName)));
    node.addPod(info);
    if (info.ownerUid) this.owners.podAdded(node, info.ownerUid);
    this.placement.set(key, nodeName);
    this.count(info, 1);
  }

  private count(info: PodInfo, sign: 1 | -1): void {
    if (info.requiredAntiAffinity.length > 0) this.antiAffinityPods += sign;
    if (hasPodAffinity(info)) this.affinityPods += sign;
  }
}
