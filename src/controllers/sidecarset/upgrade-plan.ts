/**
 * Which pods a round of the rolling in-place sidecar upgrade touches (docs/design/sidecarset.md
 * §5.3): candidates are matched pods not on the current hash that match updateStrategy.selector;
 * only image changes are upgradable. They are ordered like CloneSet's update (not ready first,
 * then priorityStrategy and scatterStrategy); the last `partition` are kept back; not-ready
 * candidates always go, ready ones only while the updated-but-unavailable pods stay under
 * maxUnavailable.
 */
import type { Pod } from '../../api/core/index.js';
import type { UpdatePriorityStrategy } from '../../api/kruise/workloads/schema-parts.js';
import { isPodReady } from '../../control/podutil/index.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import { sortPodsToUpdate } from '../../control/updatesort/index.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { isSidecarConsistent, isSidecarReady, isUpdatedPod, isUpgradablePod } from './pod-state.js';

export interface UpgradePlan {
  /** Pods to upgrade now. */
  upgrade: Pod[];
  /** Candidates whose change cannot be applied in place. */
  notUpgradable: Pod[];
  /** Upgradable candidates skipped (partition, budget, a sidecar not settled). */
  waiting: number;
}

function selectsForUpdate(set: SidecarSet, pod: Pod): boolean {
  const selector = set.spec?.updateStrategy?.selector;
  if (!selector) return true;
  try {
    return selectorFromLabelSelector(selector as MetaLabelSelector).matches(pod.metadata.labels ?? {});
  } catch {
    return false;
  }
}

/** updated and (inconsistent or not ready): what maxUnavailable bounds. */
export const isUnavailableAfterUpdate = (set: SidecarSet, pod: Pod): boolean =>
  isUpdatedPod(set, pod) && !isSidecarReady(set, pod);

export function planUpgrade(set: SidecarSet, matched: Pod[]): UpgradePlan {
  const strategy = set.spec?.updateStrategy ?? {};
  const candidates = matched.filter((p) => !isUpdatedPod(set, p) && selectsForUpdate(set, p));
  const notUpgradable = candidates.filter((p) => !isUpgradablePod(set, p));
  const upgradable = candidates.filter((p) => isUpgradablePod(set, p));
  const ordered = sortPodsToUpdate(upgradable, {
    priorityStrategy: strategy.priorityStrategy as UpdatePriorityStrategy | undefined, scatterStrategy: strategy.scatterStrategy,
  }, matched);
  const partition = scaledValue(strategy.partition, matched.length, true);
  const kept = Math.max(0, ordered.length - partition);
  const inScope = ordered.slice(0, kept);
  const maxUnavailable = Math.max(scaledValue(strategy.maxUnavailable ?? 1, matched.length, true), 0);
  let unavailable = matched.filter((p) => isUnavailableAfterUpdate(set, p)).length;
  const upgrade: Pod[] = [];
  for (const pod of inScope) {
    if (!isSidecarConsistent(set, pod)) continue;
    if (!isPodReady(pod)) {
      upgrade.push(pod);
      continue;
    }
    if (unavailable >= maxUnavailable) continue;
    unavailable++;
    upgrade.push(pod);
  }
  return { upgrade, notUpgradable, waiting: upgradable.length - upgrade.length };
}
