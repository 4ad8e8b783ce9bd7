/**
 * The pod conditions the kubelet owns (PodReadyToStartContainers, Initialized, ContainersReady,
 * Ready, and PodScheduled when a pod was created with spec.nodeName) with upstream's reasons and
 * messages. Ready also requires every `spec.readinessGates` condition to be True. A condition keeps
 * its lastTransitionTime until its status flips.
 */
import { rfc3339 } from '../../machinery/time.js';
import type { PodCondition, ContainerStatus, PodPhase, Pod } from '../../api/core/index.js';

export const kubeletConditionTypes = ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready', 'PodScheduled'];

export interface ConditionInput {
  pod: Pod;
  phase: PodPhase;
  now: number;
  sandboxReady: boolean;
  initStatuses: ContainerStatus[];
  containerStatuses: ContainerStatus[];
  /** Regular init containers done and native sidecars started. */
  initialized: boolean;
}

type Desired = Pick<PodCondition, 'type' | 'status' | 'reason' | 'message'>;

const list = (names: string[]): string => `[${names.join(' ')}]`;

function gateMessages(pod: Pod): string[] {
  const conditions = pod.status?.conditions ?? [];
  return (pod.spec.readinessGates ?? []).flatMap(({ conditionType }) => {
    const c = conditions.find((x) => x.type === conditionType);
    if (!c) return [`corresponding condition of pod readiness gate "${conditionType}" does not exist.`];
    return c.status === 'True' ? [] : [`the status of pod readiness gate "${conditionType}" is not "True", but ${c.status}`];
  });
}

function desiredConditions(input: ConditionInput): Desired[] {
  const completed = input.phase === 'Succeeded';
  const sidecars = new Set((input.pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const incomplete = input.initStatuses.filter((s) => !(s.ready || s.started)).map((s) => s.name);
  const unready = [...input.initStatuses.filter((s) => sidecars.has(s.name)), ...input.containerStatuses].filter((s) => !s.ready).map((s) => s.name);
  const initializedCondition: Desired = input.initialized || completed
    ? { type: 'Initialized', status: 'True', reason: completed ? 'PodCompleted' : undefined }
    : { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: ${list(incomplete)}` };
  const containersReady = unready.length === 0 && !completed;
  const unreadyMessage = `containers with unready status: ${list(unready)}`;
  const notReady = (type: string, extra: string[] = []): Desired => (completed
    ? { type, status: 'False', reason: 'PodCompleted' }
    : { type, status: 'False', reason: 'ContainersNotReady', message: [unreadyMessage, ...extra].join(', ') });
  const gates = gateMessages(input.pod);
  let ready: Desired = { type: 'Ready', status: 'True' };
  if (!containersReady) ready = notReady('Ready', gates);
  else if (gates.length > 0) ready = { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: gates.join(', ') };
  return [
    { type: 'PodReadyToStartContainers', status: input.sandboxReady ? 'True' : 'False' },
    initializedCondition,
    containersReady ? { type: 'ContainersReady', status: 'True' } : notReady('ContainersReady'),
    ready,
    { type: 'PodScheduled', status: 'True' },
  ];
}

/** The owned conditions with transition times carried over from the pod's current ones. */
export function podConditions(input: ConditionInput): PodCondition[] {
  const current = input.pod.status?.conditions ?? [];
  return desiredConditions(input).map((d) => {
    const old = current.find((c) => c.type === d.type);
    const same = old?.status === d.status;
    const c: PodCondition = { type: d.type, status: d.status, lastTransitionTime: same && old?.lastTransitionTime ? old.lastTransitionTime : rfc3339(input.now) };
    if (d.type === 'PodScheduled' && old) return old; // written by the scheduler (binding); keep as is
    if (d.reason) c.reason = d.reason;
    if (d.message) c.message = d.message;
    return c;
  });
}
