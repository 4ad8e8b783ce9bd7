/**
 * The taints the node lifecycle controller owns, derived from node conditions and spec (upstream's
 * NoSchedule pass from TaintNodesByCondition and the NoExecute pass of taint-based eviction):
 * Ready Unknown means `unreachable`, Ready False `not-ready` (both NoSchedule and NoExecute);
 * pressure conditions and cordoning give NoSchedule taints. Other taints are never touched, and a
 * taint that stays keeps its timeAdded.
 */
import { rfc3339 } from '../../../machinery/time.js';
import type { Node, Taint } from '../../../api/core/index.js';

export const TaintKeys = {
  notReady: 'node.kubernetes.io/not-ready',
  unreachable: 'node.kubernetes.io/unreachable',
  unschedulable: 'node.kubernetes.io/unschedulable',
  memoryPressure: 'node.kubernetes.io/memory-pressure',
  diskPressure: 'node.kubernetes.io/disk-pressure',
  pidPressure: 'node.kubernetes.io/pid-pressure',
  networkUnavailable: 'node.kubernetes.io/network-unavailable',
} as const;

const managed = new Set<string>(Object.values(TaintKeys));

/** Condition type and status that earn a NoSchedule taint. */
const conditionTaints: [string, string, string][] = [
  ['MemoryPressure', 'True', TaintKeys.memoryPressure],
  ['DiskPressure', 'True', TaintKeys.diskPressure],
  ['PIDPressure', 'True', TaintKeys.pidPressure],
  ['NetworkUnavailable', 'True', TaintKeys.networkUnavailable],
];

/** The controller-owned taints `node` should carry, as key/effect pairs. */
export function wantedTaints(node: Node): { key: string; effect: Taint['effect'] }[] {
  const status = (type: string) => node.status?.conditions?.find((c) => c.type === type)?.status;
  const out: { key: string; effect: Taint['effect'] }[] = [];
  const ready = status('Ready');
  const readiness = ready === 'Unknown' ? TaintKeys.unreachable : ready === 'False' ? TaintKeys.notReady : undefined;
  if (readiness) out.push({ key: readiness, effect: 'NoSchedule' }, { key: readiness, effect: 'NoExecute' });
  for (const [type, value, key] of conditionTaints) if (status(type) === value) out.push({ key, effect: 'NoSchedule' });
  if (node.spec?.unschedulable) out.push({ key: TaintKeys.unschedulable, effect: 'NoSchedule' });
  return out;
}

/** The node's full taint list with the controller's taints brought up to date; undefined if unchanged. */
export function reconcileTaints(node: Node, now: number): Taint[] | undefined {
  const current = node.spec?.taints ?? [];
  const wanted = wantedTaints(node);
  const isWanted = (t: Taint) => wanted.some((w) => w.key === t.key && w.effect === t.effect);
  const kept = current.filter((t) => !managed.has(t.key) || isWanted(t));
  const missing = wanted.filter((w) => !current.some((t) => t.key === w.key && t.effect === w.effect));
  if (kept.length === current.length && missing.length === 0) return undefined;
  return [...kept, ...missing.map((w) => ({ key: w.key, effect: w.effect, timeAdded: rfc3339(now) }))];
}
