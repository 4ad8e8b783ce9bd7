/**
 * Whether a BroadcastJob pod may run on a node (docs/design/jobs.md §3): the node-name, node
 * selector/affinity, taint (NoSchedule and NoExecute), unschedulable and resource predicates, with
 * the node taken empty (pods already there are not counted, as upstream). An existing pod is checked
 * as it is; a node without one is checked with a mock pod (the template with the node's name).
 */
import type { Node, PodSpec } from '../../api/core/index.js';
import { unitValue, milliValue } from '../../machinery/quantity.js';
import { firstUntoleratedTaint, requiredNodeMatcher, tolerated } from '../../machinery/scheduling/index.js';

const UnschedulableTaint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const };

/** The reason the pod does not fit, or undefined when it fits. */
export function unfitReason(spec: PodSpec | undefined, node: Node): string | undefined {
  const name = node.metadata.name ?? '';
  if (spec?.nodeName && spec.nodeName !== name) return "node(s) didn't match the requested node name";
  if (!requiredNodeMatcher(spec)(node.metadata.labels ?? {}, name)) return "node(s) didn't match Pod's node affinity/selector";
  const taint = firstUntoleratedTaint(node.spec?.taints, spec?.tolerations, ['NoSchedule', 'NoExecute']);
  if (taint) return `node(s) had taint {${taint.key}: ${taint.value ?? ''}}, that the pod didn't tolerate`;
  if (node.spec?.unschedulable && !tolerated(spec?.tolerations, UnschedulableTaint)) return 'node(s) were unschedulable';
  const short = insufficientResources(spec, node);
  return short.length > 0 ? short.map((r) => `Insufficient ${r}`).join(', ') : undefined;
}

export const fits = (spec: PodSpec | undefined, node: Node): boolean => unfitReason(spec, node) === undefined;

/** The template as the pod it would become on `nodeName` (upstream's NewMockPod). */
export function mockPodSpec(template: PodSpec | undefined, nodeName: string): PodSpec {
  return { ...(template ?? { containers: [] }), nodeName } as PodSpec;
}

type ResourceList = Record<string, string | number>;
const isMilli = (resource: string) => resource === 'cpu';
const amount = (resource: string, q: string | number | undefined) => (q === undefined ? 0 : isMilli(resource) ? milliValue(q) : unitValue(q));

/** noderesources.Fits against an empty node: max(sum of containers, each init container) + overhead ≤ allocatable, and one pod slot. */
function insufficientResources(spec: PodSpec | undefined, node: Node): string[] {
  const requests = new Map<string, number>();
  const add = (list: ResourceList | undefined, combine: (a: number, b: number) => number) => {
    for (const [r, q] of Object.entries(list ?? {})) requests.set(r, combine(requests.get(r) ?? 0, amount(r, q)));
  };
  for (const c of spec?.containers ?? []) add(c.resources?.requests as ResourceList | undefined, (a, b) => a + b);
  for (const c of spec?.initContainers ?? []) add(c.resources?.requests as ResourceList | undefined, Math.max);
  add(spec?.overhead as ResourceList | undefined, (a, b) => a + b);
  const allocatable = (node.status?.allocatable ?? {}) as ResourceList;
  const short: string[] = [];
  if (allocatable.pods !== undefined && amount('pods', allocatable.pods) < 1) short.push('pods');
  for (const [r, want] of requests) {
    if (want > 0 && want > amount(r, allocatable[r] ?? 0)) short.push(r);
  }
  return short;
}
