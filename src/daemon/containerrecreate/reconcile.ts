/**
 * The daemon's pass over one pod's requests (docs/design/container-recreate.md §4): pick the request,
 * mark it Recreating, wait out the unready grace, then judge every container from the runtime and
 * stop at most one. The stop is recorded (isKilled) before it is issued, so a daemon restarted
 * mid-stop finds the replacement container already counted and never stops it again.
 */
import { CRRPodUidLabel, CRRPreRecreateGraceCondition } from '../../api/kruise/ops/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { timeOf } from '../../machinery/time.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import type { Clock } from '../../machinery/clock.js';
import type { RuntimeService } from '../cri/services.js';
import type { RuntimeRegistry } from '../runtime/registry.js';
import { podContainers, type RuntimeContainer } from './container-view.js';
import { defaultGraceSeconds, killContainer } from './kill-container.js';
import { byPhaseThenAge, isOpen } from './pick.js';
import { currentStates, nextStep, type RecreateState } from './recreate-states.js';
import type { CRR, CRRStatusWriter } from './status-writes.js';

export const byPodKey = 'crr-pod';
export const podKeyOf = (crr: CRR) => `${crr.metadata.namespace}/${crr.spec?.podName}`;

export interface DaemonCRRDeps {
  requests: Informer<CRR>;
  runtimes: RuntimeRegistry;
  status: CRRStatusWriter;
  events: EventRecorder;
  clock: Clock;
}

type ContainerSpec = NonNullable<CRR['spec']>['containers'][number];

export class DaemonCRRReconciler {
  constructor(private readonly deps: DaemonCRRDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const crr = await this.pick(this.deps.requests.byIndex(byPodKey, `${req.namespace}/${req.name}`));
    if (crr === 'wait') return { requeueAfterMs: 1000 };
    if (!crr) return;
    if (crr.status?.phase !== 'Recreating') return this.deps.status.setPhase(crr, 'Recreating');
    const graceLeft = unreadyGraceLeftMs(crr, ctx.clock.now());
    if (graceLeft === undefined) return; // the manager has not held the pod yet; its write wakes us
    if (graceLeft > 0) return { requeueAfterMs: graceLeft + 100 };
    return this.manage(ctx, crr);
  }

  private async pick(requests: CRR[]): Promise<CRR | 'wait' | undefined> {
    let picked: CRR | undefined;
    for (const crr of requests.filter(isOpen).sort(byPhaseThenAge)) {
      if (!this.deps.status.upToDate(crr)) return picked ?? 'wait';
      if (!picked) picked = crr;
      else if (!crr.status?.phase) await this.deps.status.setPhase(crr, 'Pending');
    }
    return picked;
  }

  private async manage(ctx: ReconcileContext, crr: CRR): Promise<Result | void> {
    const runtime = this.runtimeOf(crr);
    if (typeof runtime === 'string') return this.deps.status.complete(crr, `failed to find runtime service: ${runtime}`);
    const containers = await podContainers(runtime.runtime, runtime.runtimeName, crr.metadata.labels?.[CRRPodUidLabel] ?? '', crr.spec!.containers.map((c) => c.name));
    const states = currentStates(crr, containers, ctx.clock.now());
    // Unlike upstream, a pass that changes the states goes on to act on them: the stop's own
    // record and the completion carry the states, which saves a write and a pass per container.
    let step = nextStep(crr, states);
    while (step.kind === 'kill') {
      const state = states[step.index]!;
      const spec = crr.spec!.containers[step.index]!;
      Object.assign(state, { phase: 'Recreating', isKilled: true } satisfies Partial<RecreateState>);
      await this.deps.status.setStates(crr, states); // recorded before the stop: never stop a replacement
      const error = await this.stop(crr, runtime.runtime, containers.get(state.name)!, spec).catch((e: Error) => e);
      if (!error) return;
      Object.assign(state, { phase: 'Failed', message: `kill container error: ${error.message}` });
      if (crr.spec?.strategy?.failurePolicy !== 'Ignore') return this.deps.status.setStates(crr, states);
      step = nextStep(crr, states, step.index + 1);
    }
    if (step.kind === 'fail' || step.kind === 'done') return this.deps.status.complete(crr, '', states);
    if (!deepEqual(states, crr.status?.containerRecreateStates)) return this.deps.status.setStates(crr, states);
    const minStarted = crr.spec?.strategy?.minStartedSeconds ?? 0;
    return minStarted > 0 ? { requeueAfterMs: minStarted * 1000 } : undefined;
  }

  private stop(crr: CRR, runtime: RuntimeService, container: RuntimeContainer, spec: ContainerSpec): Promise<void> {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: crr.metadata.namespace, name: crr.spec!.podName, uid: crr.metadata.labels?.[CRRPodUidLabel] } };
    return killContainer({
      runtime, container, preStop: spec.preStop, ports: spec.ports, clock: this.deps.clock,
      graceSeconds: crr.spec?.strategy?.terminationGracePeriodSeconds ?? defaultGraceSeconds,
      event: (type, reason, message) => this.deps.events.event(pod, type, reason, message),
    }, `Stopping container ${spec.name} by ContainerRecreateRequest ${crr.metadata.name}`);
  }

  /** Every container of the request must live in one runtime this daemon knows. */
  private runtimeOf(crr: CRR) {
    const ids = (crr.spec?.containers ?? []).map((c) => c.statusContext?.containerID ?? '');
    const prefixes = new Set(ids.map((id) => id.split('://')[0]));
    if (prefixes.size !== 1 || ids.some((id) => !id.includes('://'))) return `containers do not share one runtime: ${ids.join(', ')}`;
    return this.deps.runtimes.forContainerId(ids[0]!) ?? `not found runtime service for ${[...prefixes][0]} in daemon`;
  }
}

/** undefined: still waiting for the manager's PreRecreateGrace condition; else ms left (≤ 0: go). */
function unreadyGraceLeftMs(crr: CRR, now: number): number | undefined {
  const grace = crr.spec?.strategy?.unreadyGracePeriodSeconds;
  if (grace === undefined) return 0;
  const since = timeOf(crr.status?.conditions?.find((c) => c.type === CRRPreRecreateGraceCondition)?.lastTransitionTime);
  return since === undefined ? undefined : grace * 1000 - (now - since);
}
