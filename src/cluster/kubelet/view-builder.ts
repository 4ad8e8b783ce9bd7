/**
 * Builds a pod's PodView at an instant: the runtime's containers with, for each running one, what
 * its probes say (started, ready, failed), evaluated up to now by the pod's prober. Regular init
 * containers and ephemeral containers have no probes; init containers count as ready once done.
 */
import { PodProber } from './prober/pod-prober.js';
import type { PodRuntime, RuntimeInfo } from './pod-runtime.js';
import { roleOf } from './simulate-annotations.js';
import { readinessFloorMs } from './readiness.js';
import { flappingReadiness } from './behaviour/readiness-flaps.js';
import { nsToMs, runsPastPostStart, type ContainerInfo, type EntryRole, type PodView } from './pod-view.js';
import type { WorkerContext } from './worker-context.js';
import type { Container, Pod } from '../../api/core/index.js';

type ProbeOutcome = Pick<ContainerInfo, 'started' | 'ready' | 'probeFailure'> & { wakeAt: number };

const notStarted: ProbeOutcome = { started: false, ready: false, wakeAt: Infinity };

type Roles = Map<string, { spec: Container; role: EntryRole }>;

/** Each container's spec and role, per pod spec object (informer objects are not changed in place, §24). */
const rolesSeen = new WeakMap<Pod['spec'], Roles>();

function rolesOf(podSpec: Pod['spec']): Roles {
  let roles = rolesSeen.get(podSpec);
  if (roles) return roles;
  roles = new Map();
  for (const spec of podSpec.initContainers ?? []) roles.set(spec.name, { spec, role: roleOf(spec, true) });
  for (const spec of podSpec.containers) roles.set(spec.name, { spec, role: 'main' });
  for (const spec of podSpec.ephemeralContainers ?? []) roles.set(spec.name, { spec: spec as Container, role: 'ephemeral' });
  rolesSeen.set(podSpec, roles);
  return roles;
}

export class ViewBuilder {
  private readonly prober: PodProber;

  constructor(private readonly ctx: WorkerContext, private readonly runtime: PodRuntime, podRef: () => Pod) {
    const event = (reason: string, message: string) =>
      ctx.events.event({ apiVersion: 'v1', kind: 'Pod', metadata: podRef().metadata }, 'Warning', reason, message);
    this.prober = new PodProber({
      unhealthy: (_container, message) => event('Unhealthy', message),
      invalidScript: (container, key, error) => event('InvalidSimulation', `annotation ${key} (container ${container.name}): ${error}; probes succeed`),
    });
  }

  /** The view at `now`, and when probes next need a look (Infinity: not before something happens). */
  build(pod: Pod, now: number): { view: PodView; wakeAt: number } {
    const roles = rolesOf(pod.spec);
    const terminalPhase = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    const containers = new Map<string, ContainerInfo>();
    let wakeAt = Infinity;
    for (const [name, info] of this.runtime.containerInfos()) {
      const entry = roles.get(name);
      const outcome = entry && !terminalPhase ? this.probe(pod, entry.spec, entry.role, info, now) : notStarted;
      wakeAt = Math.min(wakeAt, outcome.wakeAt);
      containers.set(name, { ...info, started: outcome.started, ready: outcome.ready, probeFailure: outcome.probeFailure });
    }
    const r = this.runtime;
    const view: PodView = {
      pod, now, hostIP: this.ctx.hostIP, sandbox: r.sandbox, sandboxBusy: r.sandboxBusy,
      containers, runtimeName: this.ctx.runtimeName, crashBackoff: this.ctx.crashBackoff,
    };
    return { view, wakeAt };
  }

  private probe(pod: Pod, spec: Container, role: EntryRole, info: RuntimeInfo, now: number): ProbeOutcome {
    const latest = info.latest;
    if (!latest || !runsPastPostStart(info)) return notStarted;
    if (role === 'init' || role === 'ephemeral') return { started: true, ready: false, wakeAt: Infinity };
    const startedAt = nsToMs(latest.startedAt);
    const hook = info.postStart;
    const { ctx } = this;
    const floorMs = readinessFloorMs(ctx.readiness, pod, spec);
    const forcedReady = ctx.overrides.get(pod.metadata.namespace ?? 'default', pod.metadata.name!, spec.name);
    const status = this.prober.evaluate({
      pod, podIP: this.runtime.sandbox?.ip ?? pod.status?.podIP ?? '', container: spec, containerId: latest.id, startedAt,
      postStartDoneAt: hook?.state === 'done' ? hook.at : startedAt,
      readinessFloorMs: floorMs, forcedReady, honourReadinessDelay: ctx.readiness.honourInitialDelay !== false,
    }, now);
    const outcome = { started: status.started, ready: status.ready, probeFailure: status.failed, wakeAt: status.wakeAt };
    // the node behaviour's readiness flaps, counted from when the container could first be ready
    const flaps = forcedReady === undefined && status.ready ? ctx.readiness.flaps?.(pod, spec) : undefined;
    if (!flaps) return outcome;
    const flapped = flappingReadiness(startedAt + floorMs, flaps, now);
    return { ...outcome, ready: flapped.ready, wakeAt: Math.min(outcome.wakeAt, flapped.changesAt) };
  }
}
