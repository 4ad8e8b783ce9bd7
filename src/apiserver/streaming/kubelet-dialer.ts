/**
 * Where the API server finds the kubelets' streaming servers. The simulated nodes start after the
 * API server, so they are attached later (`kruise up` does it); until then, and for nodes nobody
 * serves, a stream fails as dialing an unreachable kubelet does (docs/design/streaming.md §1).
 */
import type { KubeletConnections, NodeStreams } from '../../api/pod-streams.js';

export class KubeletDialer {
  private readonly sources: KubeletConnections[] = [];

  attach(connections: KubeletConnections): () => void {
    this.sources.push(connections);
    return () => { const i = this.sources.indexOf(connections); if (i >= 0) this.sources.splice(i, 1); };
  }

  forNode(nodeName: string): NodeStreams | undefined {
    for (const s of this.sources) {
      const found = s.forNode(nodeName);
      if (found) return found;
    }
    return undefined;
  }

  /** The node's streaming server, or kube's error for a kubelet that cannot be reached. */
  dial(nodeName: string): NodeStreams {
    const found = this.forNode(nodeName);
    if (!found) throw new Error(`error dialing backend: dial tcp: lookup ${nodeName}: no kubelet serves this node`);
    return found;
  }
}
