/**
 * Local pod orders until src/control/updatesort lands: scale-down victims (§4.6.3.5, without
 * deletion cost spread rank) and update candidates (k8s ActivePods order, §4.6.4.5, without the
 * priority/scatter strategies). Both put the cheapest pod to lose first.
 */
import type { Pod } from './pods.js';

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

const readyOf = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const restarts = (p: Pod) => Math.max(0, ...(p.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
const created = (p: Pod) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
const deletionCost = (p: Pod) => Number(p.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0) || 0;

function activePodsCompare(a: Pod, b: Pod): number {
  const sa = a.spec.nodeName ? 1 : 0;
  const sb = b.spec.nodeName ? 1 : 0;
  if (sa !== sb) return sa - sb;
  const pa = phaseRank[a.status?.phase ?? 'Pending'] ?? 1;
  const pb = phaseRank[b.status?.phase ?? 'Pending'] ?? 1;
  if (pa !== pb) return pa - pb;
  const ra = readyOf(a) ? 1 : 0;
  const rb = readyOf(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  if (created(a) !== created(b)) return created(b) - created(a);
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** Scale-down order: unscheduled, earlier phase, not available, not ready, lower deletion cost, ... */
export function deletionOrder(pods: Pod[], isAvailable: (p: Pod) => boolean): Pod[] {
  return [...pods].sort((a, b) => {
    const sa = a.spec.nodeName ? 1 : 0;
    const sb = b.spec.nodeName ? 1 : 0;
    if (sa !== sb) return sa - sb;
    const pa = phaseRank[a.status?.phase ?? 'Pending'] ?? 1;
    const pb = phaseRank[b.status?.phase ?? 'Pending'] ?? 1;
    if (pa !== pb) return pa - pb;
    const aa = isAvailable(a) ? 1 : 0;
    const ab = isAvailable(b) ? 1 : 0;
    if (aa !== ab) return aa - ab;
    if (deletionCost(a) !== deletionCost(b)) return deletionCost(a) - deletionCost(b);
    return activePodsCompare(a, b);
  });
}

/** Update order: k8s ActivePods order. */
export function updateOrder(pods: Pod[]): Pod[] {
  return [...pods].sort(activePodsCompare);
}
