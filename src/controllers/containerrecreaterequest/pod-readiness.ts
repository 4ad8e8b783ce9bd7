/**
 * Holding the target pod not-ready during `unreadyGracePeriodSeconds` (docs/design/container-recreate.md
 * §3.1): the finalizer goes on first, so a deleted request still lets go of the pod; then this
 * request's key joins the pod's KruisePodReady condition (and Ready turns False at once rather than
 * at the kubelet's next sync); the PreRecreateGrace condition records when the drain began. Release
 * is the reverse: key out of the pod, then finalizer off.
 */
import type { Pod, PodCondition } from '../../api/core/index.js';
import { CRRPreRecreateGraceCondition, CRRUnreadyAcquiredKey } from '../../api/kruise/ops/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { addNotReadyKey, hasKruisePodReadyGate, removeNotReadyKey } from '../../control/lifecycle/index.js';
import { rfc3339 } from '../../machinery/time.js';
import { readinessMessageKey, type CRR } from './rules.js';

const hasFinalizer = (crr: CRR) => crr.metadata?.finalizers?.includes(CRRUnreadyAcquiredKey) ?? false;

function withReadyFalse(conditions: PodCondition[], now: Date): PodCondition[] {
  return conditions.map((c) => (c.type === 'Ready' && c.status !== 'False'
    ? { ...c, status: 'False', reason: 'ReadinessGatesNotReady', lastTransitionTime: rfc3339(now) } : c));
}

async function writeConditions(client: Client, pod: Pod, conditions: PodCondition[]): Promise<void> {
  await client.updateStatus(Pods, { ...pod, status: { ...pod.status, conditions } });
}

async function setFinalizer(client: Client, crr: CRR, present: boolean): Promise<void> {
  const others = (crr.metadata?.finalizers ?? []).filter((f) => f !== CRRUnreadyAcquiredKey);
  const finalizers = present ? [...others, CRRUnreadyAcquiredKey] : others;
  // resourceVersion guards against dropping someone else's finalizer added meanwhile
  await client.patch(ContainerRecreateRequests, crr.metadata?.namespace, crr.metadata!.name!, 'merge',
    { metadata: { finalizers, resourceVersion: crr.metadata?.resourceVersion } });
}

export async function acquirePodNotReady(client: Client, crr: CRR, pod: Pod, now: Date): Promise<void> {
  if (hasKruisePodReadyGate(pod)) {
    if (!hasFinalizer(crr)) await setFinalizer(client, crr, true);
    const conditions = addNotReadyKey(pod, readinessMessageKey(crr), now);
    if (conditions) await writeConditions(client, pod, withReadyFalse(conditions, now));
  }
  const graced = crr.status?.conditions?.some((c) => c.type === CRRPreRecreateGraceCondition);
  if (graced) return;
  const condition = { type: CRRPreRecreateGraceCondition, status: 'True', reason: CRRPreRecreateGraceCondition, message: '', lastTransitionTime: rfc3339(now) };
  await client.patch(ContainerRecreateRequests, crr.metadata?.namespace, crr.metadata!.name!, 'merge',
    { status: { conditions: [...(crr.status?.conditions ?? []), condition] } }, { subresource: 'status' });
}

export async function releasePodNotReady(client: Client, crr: CRR, pod: Pod | undefined, now: Date): Promise<void> {
  if (pod && !pod.metadata.deletionTimestamp) {
    const conditions = removeNotReadyKey(pod, readinessMessageKey(crr), now);
    if (conditions) await writeConditions(client, pod, conditions);
  }
  if (hasFinalizer(crr)) await setFinalizer(client, crr, false);
}
