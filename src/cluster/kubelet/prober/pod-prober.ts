/**
 * The probes of one pod's containers (kubelet's prober manager, §14): per running attempt a startup
 * worker, then, once it succeeded (or at once without one), liveness and readiness workers. A
 * container is started when its startup probe succeeded, ready when its readiness probe (if any)
 * succeeded and the readiness policy's delay is over; a liveness or startup result of failure asks
 * for the container to be killed. Each failed probe is reported as kubelet's `Unhealthy` event.
 */
import { ProbeAnnotations, scriptFor } from '../script-annotations.js';
import { defaultOutcome, parseOutcomeScript, type OutcomeScript } from '../../../machinery/outcome-script.js';
import { failureOutput, probeOf, probeSettings, probeTypeTitle, type ProbeType } from './probe-spec.js';
import { ProbeWorker } from './probe-worker.js';
import type { Container, Pod } from '../../../api/core/index.js';

export interface ProbeInput {
  pod: Pod;
  podIP: string;
  container: Container;
  containerId: string;
  startedAt: number;
  /** When its postStart hook finished (the start time without a hook). */
  postStartDoneAt: number;
  /** Extra wait before readiness (the readiness policy), from the start; probes' own delays still apply. */
  readinessFloorMs: number;
  /** Readiness forced by a test (setContainerReady). */
  forcedReady?: boolean;
  /** Whether readinessProbe.initialDelaySeconds counts (the readiness policy). */
  honourReadinessDelay: boolean;
}

export interface ContainerProbeStatus {
  started: boolean;
  ready: boolean;
  /** The liveness or startup probe failed past its threshold: kill the container. */
  failed?: 'liveness' | 'startup';
  /** When this status may change without anything else happening. */
  wakeAt: number;
}

export interface ProbeEvents {
  unhealthy(container: Container, message: string): void;
  invalidScript(container: Container, annotation: string, error: string): void;
}

interface Attempt {
  containerId: string;
  workers: Map<ProbeType, { worker: ProbeWorker; scriptText?: string }>;
}

export class PodProber {
  private readonly attempts = new Map<string, Attempt>();

  constructor(private readonly events: ProbeEvents) {}

  evaluate(input: ProbeInput, now: number): ContainerProbeStatus {
    const { container, containerId, startedAt, postStartDoneAt } = input;
    let attempt = this.attempts.get(container.name);
    if (attempt?.containerId !== containerId) {
      attempt = { containerId, workers: new Map() };
      this.attempts.set(container.name, attempt);
    }
    const status: ContainerProbeStatus = { started: true, ready: false, wakeAt: Infinity };
    let openedAt = postStartDoneAt;
    const startup = this.run(attempt, input, 'startup', postStartDoneAt, now, status);
    if (startup) {
      status.started = startup.result === 'success';
      openedAt = startup.changedAt;
      if (startup.result === 'failure') status.failed = 'startup';
    }
    if (!status.started) return status;
    const liveness = this.run(attempt, input, 'liveness', openedAt, now, status);
    if (liveness?.result === 'failure') status.failed = 'liveness';
    const readiness = this.run(attempt, input, 'readiness', openedAt, now, status);
    const floorAt = startedAt + input.readinessFloorMs;
    if (now < floorAt) status.wakeAt = Math.min(status.wakeAt, floorAt);
    status.ready = input.forcedReady ?? ((readiness ? readiness.result === 'success' : true) && now >= floorAt);
    return status;
  }

  /** Runs one probe of the attempt up to `now`, creating its worker when the probe is open. */
  private run(attempt: Attempt, input: ProbeInput, type: ProbeType, openedAt: number, now: number, status: ContainerProbeStatus): ProbeWorker | undefined {
    const probe = probeOf(input.container, type);
    if (!probe) return undefined;
    const scriptText = scriptFor(input.pod, ProbeAnnotations[type], input.container.name);
    let entry = attempt.workers.get(type);
    if (!entry) {
      const settings = probeSettings(probe);
      if (type === 'readiness' && !input.honourReadinessDelay) settings.initialDelayMs = 0;
      const firstAt = Math.max(input.startedAt + settings.initialDelayMs, openedAt);
      const script = this.script(input, type, scriptText);
      entry = { worker: new ProbeWorker({ type, settings, script, containerStartedAt: input.startedAt, firstAt }), scriptText };
      attempt.workers.set(type, entry);
    } else if (entry.scriptText !== scriptText) {
      entry.worker.rescript(this.script(input, type, scriptText), now);
      entry.scriptText = scriptText;
    }
    entry.worker.advance(now, (_at, timedOut) => {
      this.events.unhealthy(input.container, `${probeTypeTitle(type)} probe failed: ${failureOutput(probe, input.container, input.podIP, timedOut)}`);
    });
    status.wakeAt = Math.min(status.wakeAt, entry.worker.nextDueAt());
    return entry.worker;
  }

  private script(input: ProbeInput, type: ProbeType, text: string | undefined): OutcomeScript {
    if (text === undefined) return defaultOutcome;
    try {
      return parseOutcomeScript(text);
    } catch (e) {
      this.events.invalidScript(input.container, ProbeAnnotations[type], (e as Error).message);
      return defaultOutcome;
    }
  }
}
