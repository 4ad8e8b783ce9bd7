/**
 * One simulated container's life: CREATED, RUNNING after the start delay, EXITED when its script
 * says so (run time and exit code from annotations), when killed, or when it honours SIGTERM.
 * `onChange` reports each transition so the runtime can publish container events.
 */
import type { Clock } from '../../machinery/clock.js';
import type { ContainerConfig, ContainerState, ContainerStatus } from './types.js';

/** Annotations on a ContainerConfig that script the fake container (the kubelet sets them). */
export const FakeAnnotations = {
  /** Exit this long after starting (ms); with no exit code given, exits 0. */
  runMs: 'fake.kruise-ts.io/run-ms',
  /** Exit code of the scripted exit; alone it means "exit right after starting". */
  exitCode: 'fake.kruise-ts.io/exit-code',
  /** Time the process needs to exit after SIGTERM (ms); longer than the stop timeout means SIGKILL. */
  terminationMs: 'fake.kruise-ts.io/termination-ms',
  /** Time StartContainer takes for this container (ms), instead of the runtime's start delay. */
  startDelayMs: 'fake.kruise-ts.io/start-delay-ms',
} as const;

export type ContainerChange = 'started' | 'stopped';

/** The mutable part of a container's life, as the runtime's state file keeps it (times in ms). */
export interface ContainerRecord {
  state: ContainerState;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
}

export class FakeContainer {
  state: ContainerState = 'CONTAINER_CREATED';
  readonly createdAt: number;
  startedAt = 0;
  finishedAt = 0;
  exitCode = 0;
  reason = '';
  private exitTimer?: () => void;
  private exitDueAt = Infinity;
  private readonly exitWaiters: (() => void)[] = [];

  constructor(
    readonly id: string,
    readonly podSandboxId: string,
    readonly config: ContainerConfig,
    readonly imageRef: string,
    private readonly clock: Clock,
    private readonly defaultTerminationMs: number,
    private readonly onChange: (c: FakeContainer, change: ContainerChange) => void,
    createdAt?: number,
  ) {
    this.createdAt = createdAt ?? clock.now();
  }

  /** This container's own start delay, when its config gives one. */
  startDelayMs(): number | undefined {
    const custom = this.config.annotations?.[FakeAnnotations.startDelayMs];
    return custom === undefined ? undefined : Number(custom);
  }

  /** CREATED to RUNNING; schedules the scripted exit, if any. */
  markRunning(): void {
    if (this.state !== 'CONTAINER_CREATED') return;
    this.state = 'CONTAINER_RUNNING';
    this.startedAt = this.clock.now();
    this.onChange(this, 'started');
    this.scheduleScriptedExit();
  }

  /**
   * Takes up a container's life where a previous runtime process left it (the runtime's state
   * survived a restart): a running one keeps running and exits when its script says, counted from
   * its original start. (The runtime drops containers that were only created: they never ran.)
   */
  resume(record: ContainerRecord): void {
    Object.assign(this, { state: record.state, startedAt: record.startedAt, finishedAt: record.finishedAt, exitCode: record.exitCode, reason: record.reason });
    if (this.state === 'CONTAINER_RUNNING') this.scheduleScriptedExit();
  }

  /** What resume() needs to take this container up again. */
  record(): ContainerRecord {
    return { state: this.state, startedAt: this.startedAt, finishedAt: this.finishedAt, exitCode: this.exitCode, reason: this.reason };
  }

  /** The exit the container's script asks for, `runMs` after it started (at once if that is past). */
  private scheduleScriptedExit(): void {
    const a = this.config.annotations ?? {};
    if (a[FakeAnnotations.runMs] === undefined && a[FakeAnnotations.exitCode] === undefined) return;
    const dueAt = this.startedAt + Number(a[FakeAnnotations.runMs] ?? 0);
    this.scheduleExit(dueAt - this.clock.now(), Number(a[FakeAnnotations.exitCode] ?? 0));
  }

  /** SIGTERM now, SIGKILL after `timeoutMs`; resolves once exited. A shorter timeout wins. */
  stop(timeoutMs: number): Promise<void> {
    if (this.state === 'CONTAINER_EXITED') return Promise.resolve();
    const done = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    if (this.state === 'CONTAINER_CREATED') {
      this.exit(0, '');
      return done;
    }
    const custom = this.config.annotations?.[FakeAnnotations.terminationMs];
    const terminationMs = custom !== undefined ? Number(custom) : this.defaultTerminationMs;
    if (terminationMs <= timeoutMs) this.scheduleExit(terminationMs, 0);
    else this.scheduleExit(timeoutMs, 137);
    return done;
  }

  /** Immediate exit with `exitCode` (a crash, an OOM kill, or a SIGKILL). */
  exit(exitCode: number, reason?: string): void {
    if (this.state === 'CONTAINER_EXITED') return;
    this.exitTimer?.();
    const wasRunning = this.state === 'CONTAINER_RUNNING';
    this.state = 'CONTAINER_EXITED';
    this.finishedAt = this.clock.now();
    this.exitCode = exitCode;
    this.reason = reason ?? (exitCode === 0 ? 'Completed' : 'Error');
    if (!wasRunning) this.startedAt = 0;
    for (const resolve of this.exitWaiters.splice(0)) resolve();
    this.onChange(this, 'stopped');
  }

  /** Cancels timers without an event (the container is being removed). */
  dispose(): void {
    this.exitTimer?.();
    for (const resolve of this.exitWaiters.splice(0)) resolve();
  }

  private scheduleExit(afterMs: number, exitCode: number): void {
    if (afterMs <= 0) return this.exit(exitCode); // no timer: an immediate exit needs no clock tick
    const at = this.clock.now() + Math.max(0, afterMs);
    if (at >= this.exitDueAt) return;
    this.exitTimer?.();
    this.exitDueAt = at;
    if (!Number.isFinite(afterMs)) return;
    this.armExit(at, exitCode);
  }

  /**
   * Exits once the clock reads `at`. A timer can fire a millisecond or two before the wall clock
   * reaches its due time (the timer runs on the monotonic clock, `now()` is the wall clock, both
   * rounded to ms): exiting then stamped finishedAt before the script's end, and the log, cut at
   * finishedAt, lost the line written as the process exited (docs/design/streaming.md §8).
   */
  private armExit(at: number, exitCode: number): void {
    this.exitTimer = this.clock.after(at - this.clock.now(), () => {
      if (this.clock.now() < at) this.armExit(at, exitCode);
      else this.exit(exitCode);
    });
  }

  status(): ContainerStatus {
    const ns = (ms: number) => ms * 1_000_000;
    return {
      id: this.id,
      metadata: { ...this.config.metadata },
      state: this.state,
      createdAt: ns(this.createdAt),
      startedAt: ns(this.startedAt),
      finishedAt: ns(this.finishedAt),
      exitCode: this.exitCode,
      image: { ...this.config.image },
      imageRef: this.imageRef,
      reason: this.reason,
      message: '',
      labels: { ...this.config.labels },
      annotations: { ...this.config.annotations },
    };
  }
}
