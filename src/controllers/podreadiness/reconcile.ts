/**
 * pod-readiness-controller: a pod carrying the `KruisePodReady` readiness gate (injected by the pod
 * webhook) gets condition `KruisePodReady=True` once, so the gate alone never holds it not-ready.
 * Later writers flip the condition to False to hold the pod; this controller never touches an
 * existing condition. Written through pods/status; a conflict re-reads from the API server.
 */
import type { Pod, PodCondition } from '../../api/core/index.js';
import { Pods } from '../../api/resource-type.js';
import { KruisePodReadyCondition } from '../../api/kruise/workloads/labels.js';
import type { Client } from '../../client/client.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import type { Request } from '../../runtime/handlers.js';
import { rfc3339 } from '../../machinery/time.js';

/** Has the gate, lacks the condition, and is not being deleted. */
export function needsReadyCondition(pod: Pod): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const gated = pod.spec?.readinessGates?.some((g) => g.conditionType === KruisePodReadyCondition) ?? false;
  return gated && !pod.status?.conditions?.some((c) => c.type === KruisePodReadyCondition);
}

/** A copy of `pod` with KruisePodReady=True appended (cached objects are never mutated). */
export function withReadyCondition(pod: Pod, now: number): Pod {
  const condition: PodCondition = { type: KruisePodReadyCondition, status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  return { ...pod, status: { ...pod.status, conditions: [...(pod.status?.conditions ?? []), condition] } };
}

const maxAttempts = 3;

export class PodReadinessReconciler {
  constructor(private readonly deps: { client: Client; pods: Informer<Pod> }) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    let pod = this.deps.pods.get(req.namespace, req.name);
    for (let attempt = 1; pod && needsReadyCondition(pod); attempt++) {
      try {
        await this.deps.client.updateStatus(Pods, withReadyCondition(pod, ctx.clock.now()));
        ctx.log.debug('Added KruisePodReady condition');
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isConflict(e) || attempt >= maxAttempts) throw e;
        pod = await this.fresh(req);
      }
    }
  }

  private async fresh(req: Request): Promise<Pod | undefined> {
    try {
      return await this.deps.client.get<Pod>(Pods, req.namespace, req.name);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }
}
