import type { Pod, ReplicaSet } from '../../../api/core/index.js';
/**
 * The Recreate strategy's gate (recreate.go oldPodsRunning): the new ReplicaSet is scaled up only
 * once the old ReplicaSets report no replicas and none of their pods is still alive, terminating
 * ones included. Pods in Unknown phase count as alive: they may still be running.
 */

export function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[], podsOf: (rs: ReplicaSet) => readonly Pod[]): boolean {
  if (oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
  for (const rs of oldRSs) {
    if (newRS && rs.metadata.uid === newRS.metadata.uid) continue;
    for (const pod of podsOf(rs)) {
      const phase = pod.status?.phase;
      if (phase !== 'Failed' && phase !== 'Succeeded') return true;
    }
  }
  return false;
}
