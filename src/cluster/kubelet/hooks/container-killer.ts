/**
 * Kills containers as kubelet's killContainer does (§15): a `Killing` event, the preStop hook
 * (simulated) run within the grace period and cut off at its end, then, once every container this
 * one must outlive has exited (sidecars stop after the main containers, in reverse order) or the
 * grace period is over, SIGTERM with what is left of it (at least 2 s, kubelet's minimum) before
 * SIGKILL. Repeating a kill is harmless; a shorter grace period brings the deadline forward.
 */
import type { Clock } from '../../../machinery/clock.js';
import { hookPlan } from './hook-plan.js';
import type { Container, Pod } from '../../../api/core/index.js';

const minimumGraceMs = 2000;

export interface KillRequest {
  containerId: string;
  container: Container;
  /** Grace period from now; the kill keeps the earliest deadline it was given. */
  graceSeconds: number;
  /** The `Killing` event's message. */
  message: string;
  /** Start the container again once it exited, whatever the restartPolicy (probe failures, spec changes). */
  restart: boolean;
  /** Containers that must have exited before this one gets SIGTERM (until the deadline). */
  after: string[];
}

export interface KillerHost {
  clock: Clock;
  pod(): Pod;
  /** Whether the runtime reports the container running; exited ones count as gone. */
  isRunning(containerId: string): boolean;
  isExited(containerId: string): boolean;
  stop(containerId: string, timeoutSeconds: number): void;
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

interface Kill {
  deadline: number;
  hookEndsAt: number;
  /** A failing preStop hook not reported yet. */
  hookFailurePending: boolean;
  after: string[];
  signalled: boolean;
}

export class ContainerKiller {
  private readonly kills = new Map<string, Kill>();
  /** Killed containers to start again once they exited. */
  readonly restartAfterExit = new Set<string>();

  constructor(private readonly host: KillerHost) {}

  kill(req: KillRequest): void {
    const now = this.host.clock.now();
    const deadline = now + Math.max(0, req.graceSeconds) * 1000;
    let kill = this.kills.get(req.containerId);
    if (!kill) {
      kill = this.begin(req, now, deadline);
      this.kills.set(req.containerId, kill);
    } else if (deadline < kill.deadline) {
      kill.deadline = deadline;
      kill.hookEndsAt = Math.min(kill.hookEndsAt, deadline);
      if (kill.signalled) this.host.stop(req.containerId, Math.max(deadline - now, minimumGraceMs) / 1000);
    }
    kill.after = req.after;
    this.progress(req.containerId, kill, now);
  }

  /** When a kill in progress can move on by itself (a hook ends, a turn times out). */
  nextWakeAt(): number {
    const now = this.host.clock.now();
    let at = Infinity;
    for (const [id, kill] of this.kills) {
      if (kill.signalled || this.host.isExited(id)) continue;
      at = Math.min(at, kill.hookEndsAt > now ? kill.hookEndsAt : kill.deadline);
    }
    return at;
  }

  /** Moves every kill in progress on (a hook ended, a container it waited for exited). */
  progressAll(): void {
    const now = this.host.clock.now();
    for (const [id, kill] of this.kills) this.progress(id, kill, now);
  }

  /** The container is gone from the runtime. */
  forget(containerId: string): void {
    this.kills.delete(containerId);
    this.restartAfterExit.delete(containerId);
  }

  private begin(req: KillRequest, now: number, deadline: number): Kill {
    this.host.event('Normal', 'Killing', req.message);
    if (req.restart) this.restartAfterExit.add(req.containerId);
    const plan = req.graceSeconds > 0 && this.host.isRunning(req.containerId) ? hookPlan(this.host.pod(), req.container, 'preStop') : undefined;
    const hookEndsAt = plan ? Math.min(now + plan.durationMs, deadline) : now;
    // a hook cut off by the grace period never reports its outcome (kubelet only logs it)
    const hookFailurePending = !!plan?.fails && now + plan.durationMs <= deadline;
    return { deadline, hookEndsAt, hookFailurePending, after: req.after, signalled: false };
  }

  private progress(containerId: string, kill: Kill, now: number): void {
    if (kill.signalled || now < kill.hookEndsAt) return;
    if (kill.hookFailurePending) {
      kill.hookFailurePending = false;
      // kubelet leaves the hook's output out of the event, so that secrets cannot leak through it
      this.host.event('Warning', 'FailedPreStopHook', 'PreStopHook failed');
    }
    const waiting = kill.after.some((id) => !this.host.isExited(id));
    if (waiting && now < kill.deadline) return;
    kill.signalled = true;
    this.host.stop(containerId, Math.max(kill.deadline - now, minimumGraceMs) / 1000);
  }
}
