/**
 * Which containers the kubelet kills, and why (§4, §15): every container once the pod is terminal or
 * being deleted (native sidecars after the regular containers, in reverse order, as kubelet's
 * termination ordering does), and single containers whose postStart hook failed, whose liveness or
 * startup probe failed, or whose spec image changed (in-place update).
 */
import { sameImage } from '../../daemon/cri/image-ref.js';
import type { KillRequest } from './hooks/container-killer.js';
import { ephemeralEntries, initEntries, isExited, isRunning, mainEntries, type ContainerEntry, type PodView } from './pod-view.js';

/** `replace`: killed because its spec changed, to be started again at once (§23). */
export type KillAction = { type: 'kill'; replace?: boolean } & KillRequest;

/** The pod's grace period: the deletion's, else the spec's, else 30 s. */
export function gracePeriodSeconds(view: PodView): number {
  const { metadata, spec } = view.pod;
  return Math.max(0, metadata.deletionGracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30);
}

const alive = (e: ContainerEntry): boolean => !!e.info.latest && !isExited(e.info.latest);

/** Kill every container still running or created; sidecars wait for the others and for later sidecars. */
export function killAllActions(view: PodView, graceSeconds = gracePeriodSeconds(view)): KillAction[] {
  const inits = initEntries(view);
  const first = [...mainEntries(view), ...ephemeralEntries(view), ...inits.filter((e) => e.role === 'init')];
  const sidecars = inits.filter((e) => e.role === 'sidecar');
  const ids = (entries: ContainerEntry[]) => entries.filter(alive).map((e) => e.info.latest!.id);
  const kill = (e: ContainerEntry, after: string[]): KillAction => ({
    type: 'kill', containerId: e.info.latest!.id, container: e.spec, graceSeconds, message: `Stopping container ${e.spec.name}`, restart: false, after,
  });
  const out = first.filter(alive).map((e) => kill(e, []));
  sidecars.forEach((e, i) => {
    if (alive(e)) out.push(kill(e, [...ids(first), ...ids(sidecars.slice(i + 1))]));
  });
  return out;
}

/** Why a running container must be killed now, if it must (kubelet's computePodActions). */
export function killForCause(view: PodView, entry: ContainerEntry): KillAction | undefined {
  const { spec, role, info } = entry;
  const latest = info.latest;
  if (!latest || !isRunning(latest) || role === 'ephemeral') return undefined;
  const base = { type: 'kill' as const, containerId: latest.id, container: spec, graceSeconds: gracePeriodSeconds(view), after: [] };
  if (info.postStart?.state === 'failed') return { ...base, message: 'FailedPostStartHook', restart: false };
  if (info.probeFailure) {
    const restart = role === 'sidecar' || view.pod.spec.restartPolicy !== 'Never';
    const probe = info.probeFailure === 'liveness' ? spec.livenessProbe : spec.startupProbe;
    const message = `Container ${spec.name} failed ${info.probeFailure} probe${restart ? ', will be restarted' : ''}`;
    return { ...base, graceSeconds: probe?.terminationGracePeriodSeconds ?? base.graceSeconds, message, restart };
  }
  if (role !== 'init' && !sameImage(latest.image.image, spec.image ?? '')) {
    return { ...base, message: `Container ${spec.name} definition changed, will be restarted`, restart: true, replace: true };
  }
  return undefined;
}
