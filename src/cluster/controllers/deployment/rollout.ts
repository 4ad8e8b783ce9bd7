/**
 * The four ways a Deployment sync ends (Kubernetes' rolling.go, recreate.go and sync.go): a rolling
 * step, a Recreate step, a plain scaling (paused, or replicas changed mid-rollout), and status
 * only (being deleted). Each makes at most one kind of change, then reports status; the events of
 * its own writes bring the next step.
 */
import { IndexNames } from '../../../runtime/indexers.js';
import { specReplicas } from './budgets.js';
import { replicaSetsOf } from './new-replica-set.js';
import { planScale } from './proportional.js';
import { oldPodsRunning } from './recreate.js';
import { activeReplicaSets } from './replica-sets.js';
import { planNewReplicaSet, planOldReplicaSets } from './rolling.js';
import { deploymentComplete } from './status.js';
import type { DeploymentSync, SyncResult } from './sync.js';
import type { ReplicaSet } from '../../../api/core/index.js';

const defined = (list: (ReplicaSet | undefined)[]): ReplicaSet[] => list.filter((rs): rs is ReplicaSet => rs !== undefined);

export async function rolloutRolling(s: DeploymentSync): Promise<SyncResult> {
  const { newRS: found, oldRSs } = await replicaSetsOf(s, true);
  const newRS = found!;
  const all = [...oldRSs, newRS];
  const target = planNewReplicaSet(s.d, all, newRS);
  if (target !== undefined) {
    const scaled = await s.scale(newRS, target);
    return s.syncRolloutStatus([...oldRSs, scaled], scaled);
  }
  const plan = planOldReplicaSets(s.d, activeReplicaSets(oldRSs), all, newRS);
  if (plan.size > 0) {
    const updatedOld = await s.applyPlan(oldRSs, plan);
    return s.syncRolloutStatus([...updatedOld, newRS], newRS);
  }
  if (deploymentComplete(s.d, s.d.status ?? {})) await s.cleanup(oldRSs);
  return s.syncRolloutStatus(all, newRS);
}

export async function rolloutRecreate(s: DeploymentSync): Promise<SyncResult> {
  let { newRS, oldRSs } = await replicaSetsOf(s, false);
  const active = new Set(activeReplicaSets(oldRSs).map((rs) => rs.metadata.name!));
  const downPlan = new Map([...active].map((name) => [name, 0]));
  if (downPlan.size > 0) {
    const updatedOld = await s.applyPlan(oldRSs, downPlan);
    return s.syncRolloutStatus(defined([...updatedOld, newRS]), newRS);
  }
  const podsOf = (rs: ReplicaSet) => s.deps.pods.byIndex(IndexNames.controllerUid, rs.metadata.uid!);
  if (oldPodsRunning(newRS, oldRSs, podsOf)) return s.syncRolloutStatus(defined([...oldRSs, newRS]), newRS);
  if (!newRS) ({ newRS, oldRSs } = await replicaSetsOf(s, true));
  const scaled = await s.scale(newRS!, specReplicas(s.d));
  if (deploymentComplete(s.d, s.d.status ?? {})) await s.cleanup(oldRSs);
  return s.syncRolloutStatus([...oldRSs, scaled], scaled);
}

/** sync: scale without rolling (paused deployments also get their history cleaned up). */
export async function syncScaling(s: DeploymentSync): Promise<SyncResult> {
  const { newRS, oldRSs } = await replicaSetsOf(s, false);
  const { plan, syncAnnotations } = planScale(s.d, newRS, oldRSs);
  const [updated, ...updatedOld] = await s.applyPlan(defined([newRS, ...oldRSs]), plan, syncAnnotations);
  const scaledNew = newRS ? updated : undefined;
  const old = newRS ? updatedOld : defined([updated, ...updatedOld]);
  if (s.d.spec?.paused) await s.cleanup(old);
  return s.syncDeploymentStatus(defined([...old, scaledNew]), scaledNew);
}

export async function syncStatusOnly(s: DeploymentSync): Promise<SyncResult> {
  const { newRS, oldRSs } = await replicaSetsOf(s, false);
  return s.syncDeploymentStatus(defined([...oldRSs, newRS]), newRS);
}
