/**
 * The manager's pure judgements over one ContainerRecreateRequest (docs/design/container-recreate.md
 * §3): when it must be completed and why, how long until it should be looked at again, and the
 * container snapshot the daemon reads to decide a restarted container is ready.
 */
import type { Pod } from '../../api/core/index.js';
import { CRRPodUidLabel, type ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import type { KObject } from '../../api/meta.js';
import { timeOf } from '../../machinery/time.js';

/** A request as the caches hold it (metadata always present). */
export type CRR = ContainerRecreateRequest & KObject;
type Snapshot = NonNullable<NonNullable<CRR['status']>['containerStatusSnapshot']>;
type States = NonNullable<NonNullable<CRR['status']>['containerRecreateStates']>;

/** How long a request may wait for its daemon to say anything (upstream's response timeout). */
export const daemonResponseTimeoutMs = 60_000;
/** The snapshot is refreshed at least this often while recreating. */
export const snapshotRefreshMs = 3_000;

export const PodGoneMessage = 'pod has gone';
export const DaemonSilentMessage = 'daemon has not responded for a long time';
export const DeadlineMessage = 'recreating has exceeded the activeDeadlineSeconds';

export const isFinished = (crr: CRR): boolean => !!crr.status?.completionTime;

/** The pod is missing, leaving, or a different pod under the same name. */
export function podGone(crr: CRR, pod: Pod | undefined): boolean {
  return !pod || !!pod.metadata.deletionTimestamp || pod.metadata.uid !== crr.metadata?.labels?.[CRRPodUidLabel];
}

export interface Verdict {
  /** Complete now with this message (and these container states). */
  complete?: { message: string; states?: States };
  /** Otherwise look again after this long (undefined: only on events). */
  recheckMs?: number;
}

/** Rules 3 and 4 of §3: a silent daemon and the active deadline, both counted from creation. */
export function timeVerdict(crr: CRR, now: number): Verdict {
  const age = now - (timeOf(crr.metadata?.creationTimestamp) ?? now);
  let recheckMs: number | undefined;
  const sooner = (ms: number) => { recheckMs = recheckMs === undefined ? ms : Math.min(recheckMs, ms); };
  if (!crr.status?.phase) {
    const left = daemonResponseTimeoutMs - age;
    if (left <= 0) return { complete: { message: DaemonSilentMessage } };
    sooner(left);
  }
  const deadline = crr.spec?.activeDeadlineSeconds;
  if (deadline !== undefined) {
    const left = deadline * 1000 - age;
    if (left <= 0) return { complete: { message: DeadlineMessage, states: failUnfinished(crr, DeadlineMessage) } };
    sooner(left);
  }
  return { recheckMs };
}

/** Every container state not yet Succeeded or Failed becomes Failed with `message`. */
function failUnfinished(crr: CRR, message: string): States | undefined {
  const states = crr.status?.containerRecreateStates;
  return states?.map((s) => (s.phase === 'Succeeded' || s.phase === 'Failed' ? s : { ...s, phase: 'Failed', message }));
}

/**
 * The pod's view of the requested containers: only those running in an attempt started since the
 * request was made (older attempts say nothing about the recreated container).
 */
export function containerSnapshot(crr: CRR, pod: Pod): Snapshot {
  const created = timeOf(crr.metadata?.creationTimestamp) ?? 0;
  const out: Snapshot = [];
  for (const c of crr.spec?.containers ?? []) {
    const status = pod.status?.containerStatuses?.find((s) => s.name === c.name) ?? pod.status?.initContainerStatuses?.find((s) => s.name === c.name);
    const startedAt = timeOf(status?.state?.running?.startedAt ?? undefined);
    if (!status || startedAt === undefined || startedAt < created) continue;
    out.push({ name: status.name, ready: status.ready, restartCount: status.restartCount, containerID: status.containerID });
  }
  return out;
}

/** This request's entry in the pod's KruisePodReady condition. */
export function readinessMessageKey(crr: CRR): { userAgent: string; key: string } {
  return { userAgent: 'ContainerRecreateRequest', key: `${crr.metadata?.namespace}/${crr.metadata?.name}` };
}
