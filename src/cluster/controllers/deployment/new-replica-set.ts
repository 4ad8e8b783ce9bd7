/**
 * Finding or creating a Deployment's new ReplicaSet (sync.go getNewReplicaSet). An existing one gets
 * its annotations and minReadySeconds brought up to date and lends its revision to the deployment;
 * a missing one is created at the size the strategy allows now. A name taken by a ReplicaSet with
 * another template is a hash collision: collisionCount goes up and the next sync tries a new name.
 */
import { ReplicaSets } from '../../../api/resource-type.js';
import { isAlreadyExists, StatusError } from '../../../machinery/errors.js';
import { getCondition, newCondition, setCondition } from '../../../control/conditions/index.js';
import { controllerRef } from '../../../control/ownership/index.js';
import { maxRevision, revisionAnnotation, setNewReplicaSetAnnotations } from './annotations.js';
import { maxSurge, newReplicaSetReplicas, specReplicas } from './budgets.js';
import { equalIgnoreHash, findNewReplicaSet, findOldReplicaSets, newReplicaSetObject } from './replica-sets.js';
import { hasProgressDeadline, Reasons } from './status.js';
import type { DeploymentSync } from './sync.js';
import type { ReplicaSet } from '../../../api/core/index.js';

export interface ReplicaSetsOfDeployment {
  newRS: ReplicaSet | undefined;
  oldRSs: ReplicaSet[];
}

/** getAllReplicaSetsAndSyncRevision. */
export async function replicaSetsOf(s: DeploymentSync, create: boolean): Promise<ReplicaSetsOfDeployment> {
  const oldRSs = findOldReplicaSets(s.rsList, findNewReplicaSet(s.d, s.rsList));
  return { newRS: await getNewReplicaSet(s, oldRSs, create), oldRSs };
}

function setProgressing(s: DeploymentSync, status: 'True' | 'False', reason: string, message: string): void {
  s.d.status = { ...s.d.status, conditions: setCondition(s.d.status?.conditions, newCondition('Progressing', status, reason, message, s.now(), true)) };
}

async function syncExisting(s: DeploymentSync, existing: ReplicaSet, newRevision: number): Promise<ReplicaSet> {
  const d = s.d;
  const copy = structuredClone(existing);
  const desired = specReplicas(d);
  const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true, desired, desired + maxSurge(d));
  const minReady = d.spec?.minReadySeconds ?? 0;
  if (annotationsChanged || (copy.spec?.minReadySeconds ?? 0) !== minReady) {
    copy.spec = { ...copy.spec, minReadySeconds: minReady || undefined };
    return s.updateReplicaSet(copy); // the deployment's revision follows on the next sync
  }
  let needsUpdate = s.setRevision(copy.metadata.annotations?.[revisionAnnotation] ?? '');
  if (hasProgressDeadline(d) && !getCondition(d.status?.conditions, 'Progressing')) {
    setProgressing(s, 'True', Reasons.foundNewRS, `Found new replica set "${copy.metadata.name}"`);
    needsUpdate = true;
  }
  if (needsUpdate) await s.writeDeployment();
  return copy;
}

async function getNewReplicaSet(s: DeploymentSync, oldRSs: ReplicaSet[], create: boolean): Promise<ReplicaSet | undefined> {
  const d = s.d;
  const newRevision = maxRevision(oldRSs) + 1;
  const existing = findNewReplicaSet(d, s.rsList);
  if (existing) return syncExisting(s, existing, newRevision);
  if (!create) return undefined;
  const rs = newReplicaSetObject(d);
  rs.spec!.replicas = newReplicaSetReplicas(d, [...oldRSs, rs], rs);
  const desired = specReplicas(d);
  setNewReplicaSetAnnotations(d, rs, newRevision, false, desired, desired + maxSurge(d));
  let created: ReplicaSet;
  let alreadyExisted = false;
  try {
    created = await s.deps.client.create(ReplicaSets, rs);
  } catch (e) {
    if (!isAlreadyExists(e)) return failCreate(s, rs, e);
    const found = await s.deps.client.get<ReplicaSet>(ReplicaSets, d.metadata.namespace, rs.metadata.name!);
    if (controllerRef(found)?.uid !== d.metadata.uid || !equalIgnoreHash(d.spec?.template, found.spec?.template)) {
      s.d.status = { ...s.d.status, collisionCount: (d.status?.collisionCount ?? 0) + 1 };
      await s.writeDeployment();
      throw e; // retried with the next name
    }
    created = found; // our own, missed by a stale cache
    alreadyExisted = true;
  }
  const size = specReplicas(created);
  if (!alreadyExisted && size > 0) {
    s.deps.events.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${size}`);
  }
  let needsUpdate = s.setRevision(String(newRevision));
  if (!alreadyExisted && hasProgressDeadline(d)) {
    setProgressing(s, 'True', Reasons.newRSCreated, `Created new replica set "${created.metadata.name}"`);
    needsUpdate = true;
  }
  if (needsUpdate) await s.writeDeployment();
  return created;
}

async function failCreate(s: DeploymentSync, rs: ReplicaSet, e: unknown): Promise<never> {
  const terminating = e instanceof StatusError && (e.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
  if (terminating) throw e;
  const message = `Failed to create new replica set "${rs.metadata.name}": ${e instanceof Error ? e.message : String(e)}`;
  if (hasProgressDeadline(s.d)) {
    setProgressing(s, 'False', Reasons.failedRSCreate, message);
    await s.writeDeployment().catch(() => undefined); // the create error is the one worth reporting
  }
  s.deps.events.event(s.d, 'Warning', Reasons.failedRSCreate, message);
  throw e;
}
