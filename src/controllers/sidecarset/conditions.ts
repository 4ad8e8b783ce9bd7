/**
 * Pod condition `SidecarSetUpgradable` (docs/design/sidecarset.md §5.3): its message is a JSON map
 * SidecarSet name → whether that set can upgrade the pod in place; False (reason
 * UpdateImmutableField) while any entry is false, True (AllSidecarsetUpgradable) once all are true.
 */
import type { Pod } from '../../api/core/index.js';
import {
  SidecarSetUpgradableCondition, SidecarSetUpgradableReasonAll, SidecarSetUpgradableReasonImmutableField,
} from '../../api/kruise/ops/sidecarset.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { podCondition, withPodCondition } from '../../control/podutil/index.js';

function entries(pod: Pod): Record<string, boolean> {
  try {
    return JSON.parse(podCondition(pod, SidecarSetUpgradableCondition)?.message ?? '{}') as Record<string, boolean>;
  } catch {
    return {};
  }
}

/** Records whether `set` can upgrade `pod`; writes pods/status only when the condition changes. */
export async function setUpgradable(client: Client, pod: Pod, set: string, upgradable: boolean, now: number): Promise<void> {
  const current = podCondition(pod, SidecarSetUpgradableCondition);
  if (!current && upgradable) return;
  const map = { ...entries(pod), [set]: upgradable };
  const sorted = Object.fromEntries(Object.keys(map).sort().map((k) => [k, map[k]]));
  const all = Object.values(sorted).every(Boolean);
  const conditions = withPodCondition(pod.status?.conditions, {
    type: SidecarSetUpgradableCondition, status: all ? 'True' : 'False',
    reason: all ? SidecarSetUpgradableReasonAll : SidecarSetUpgradableReasonImmutableField, message: JSON.stringify(sorted),
  }, now);
  if (!conditions) return;
  await client.updateStatus<Pod>(Pods, { ...pod, status: { ...pod.status, conditions } });
}
