/**
 * What a node may read by kube's Node authorizer graph (docs/design/authorization.md §17): the pods
 * bound to it, and the Secrets, ConfigMaps, ServiceAccounts and claims those pods name, plus the
 * PersistentVolumes their bound claims use. As kube's graph is kept current from informers, the
 * edges from each node (to its pods and to what they name) are counted in memory from the store's
 * watch of pods, delivered synchronously after each write, so a decision never sees a graph older
 * than the requester's own writes, and costs the same whatever the namespace holds. The index
 * starts at the first question (a server no kubelet talks to keeps none) and lives with the store.
 */
import type { KObject } from '../../api/meta.js';
import type { RegistryReader, StoredEvent } from '../registry/reader.js';
import { allPodReferences, type GraphKind } from './pod-references.js';

export type { GraphKind } from './pod-references.js';

const edge = (kind: GraphKind, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

export class NodeGraph {
  /** node -> edge (`<kind>/<namespace>/<name>`) -> how many of its pods lead there. */
  private readonly edges = new Map<string, Map<string, number>>();
  /** `<namespace>/<name>` of each bound pod -> its node and edges, to take them back. */
  private readonly podEdges = new Map<string, { node: string; edges: string[] }>();
  private following = false;

  constructor(private readonly reader: RegistryReader) {}

  /** Whether a path leads from the object to the node. */
  related(node: string, kind: GraphKind, namespace: string, name: string): boolean {
    if (kind === 'persistentvolumes') return this.volumeRelated(node, name);
    if (!this.following) this.follow();
    return (this.edges.get(node)?.get(edge(kind, namespace, name)) ?? 0) > 0;
  }

  private volumeRelated(node: string, volume: string): boolean {
    const claims = this.reader.table.lookup('', 'v1', 'persistentvolumeclaims')!;
    return this.reader.listStored(claims).items
      .filter((c) => (c.spec as { volumeName?: string } | undefined)?.volumeName === volume)
      .some((c) => this.related(node, 'persistentvolumeclaims', c.metadata.namespace ?? '', c.metadata.name ?? ''));
  }

  private follow(): void {
    this.following = true;
    const pods = this.reader.table.lookup('', 'v1', 'pods')!;
    const list = this.reader.listStored(pods);
    for (const pod of list.items) this.add(pod);
    this.reader.watchStored(pods, undefined, list.rv, (e: StoredEvent) => {
      this.remove(e.object);
      if (e.type !== 'DELETED') this.add(e.object);
    });
  }

  private add(pod: KObject): void {
    const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!node) return;
    const ns = pod.metadata.namespace ?? '';
    const edges = new Set([edge('pods', ns, pod.metadata.name!)]);
    for (const [kind, names] of Object.entries(allPodReferences(pod))) for (const n of names) edges.add(edge(kind as GraphKind, ns, n));
    let counts = this.edges.get(node);
    if (!counts) this.edges.set(node, (counts = new Map()));
    for (const e of edges) counts.set(e, (counts.get(e) ?? 0) + 1);
    this.podEdges.set(podKey(pod), { node, edges: [...edges] });
  }

  private remove(pod: KObject): void {
    const key = podKey(pod);
    const old = this.podEdges.get(key);
    if (!old) return;
    this.podEdges.delete(key);
    const counts = this.edges.get(old.node)!;
    for (const e of old.edges) {
      const n = counts.get(e)! - 1;
      if (n > 0) counts.set(e, n);
      else counts.delete(e);
    }
    if (counts.size === 0) this.edges.delete(old.node);
  }
}

const podKey = (pod: KObject): string => `${pod.metadata.namespace}/${pod.metadata.name}`;
