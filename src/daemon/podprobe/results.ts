/**
 * The latest result of every probe worker (upstream's results manager), keyed `<pod uid>/<probe
 * name>`. A result counts as news when its state or message changed, or when the last one written is
 * ten minutes old, so lastProbeTime moves on without a status write per probe period
 * (docs/design/pod-probes.md §5).
 */
import type { ProbeState } from '../../api/kruise/ops/podprobemarker.js';

/** How often an unchanged result is written again (upstream's maxSyncProbeTime). */
export const refreshResultMs = 600_000;

export interface ProbeTarget {
  podNamespace: string;
  podName: string;
  podUid: string;
  containerName: string;
  /** `<PodProbeMarker>#<probe>`. */
  probeName: string;
  /** The pod IP the NodePodProbe names (tcpSocket and httpGet go there). */
  podIP: string;
}

export interface ProbeResult {
  target: ProbeTarget;
  state: ProbeState;
  message: string;
  probedAt: number;
  /** Not yet announced as an event. */
  fresh: boolean;
}

export const resultKey = (podUid: string, probeName: string): string => `${podUid}/${probeName}`;

export class ProbeResults {
  private readonly results = new Map<string, ProbeResult>();

  constructor(private readonly onNews: () => void) {}

  set(target: ProbeTarget, state: ProbeState, message: string, now: number): void {
    const key = resultKey(target.podUid, target.probeName);
    const prev = this.results.get(key);
    if (prev && prev.state === state && prev.message === message && now - prev.probedAt < refreshResultMs) return;
    this.results.set(key, { target, state, message, probedAt: now, fresh: !prev || prev.state !== state || prev.message !== message });
    this.onNews();
  }

  remove(target: ProbeTarget): void {
    this.results.delete(resultKey(target.podUid, target.probeName));
  }

  list(): ProbeResult[] {
    return [...this.results.values()];
  }

  /** The results not yet announced, marked announced. */
  takeFresh(): ProbeResult[] {
    const fresh = this.list().filter((r) => r.fresh);
    for (const r of fresh) r.fresh = false;
    return fresh;
  }
}
