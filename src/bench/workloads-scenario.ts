/**
 * The contract between `bench:workloads` and its scenarios. A scenario gets a BenchEnv (a fresh
 * plane, a `kruise manager` child, the options) and returns its phases, derived facts and goals; a
 * phase is one write by the benchmark plus milestones read from the store (PhaseSpec), and
 * `env.measure` turns it into a PhaseResult. New workloads implement `Scenario` only.
 */
import type { ManagerProc } from './admission-procs.js';
import type { BenchPlane } from './workloads-plane.js';
import type { ProcUsage, Reconciles } from './workloads-proc.js';
import type { KindStats } from './workloads-requests.js';
import type { Stage, StageSummary } from './workloads-stages.js';
import type { Condition, StoreWatch } from './workloads-watch.js';

export interface BenchOptions {
  /** CloneSet replicas. */
  replicas: number;
  /** Advanced StatefulSet replicas (the Advanced DaemonSet runs one pod per node). */
  astsReplicas: number;
  nodes: number;
  pullDelayMs: number;
  startDelayMs: number;
  maxUnavailable: string;
  /** Per phase. */
  timeoutMs: number;
  /** The CloneSet scenario's idle window after scale-up. */
  idleSeconds: number;
}

export interface Milestone extends Condition {
  name: string;
  watch: StoreWatch;
}

export interface PhaseSpec {
  name: string;
  /** Pods the phase creates or moves to a new revision: the denominator of writes per pod. */
  pods: number;
  /** The benchmark's write that starts the phase; the clock starts right before it. */
  start(): Promise<void>;
  milestones: Milestone[];
  /** The milestone whose time is the phase's time. */
  done: string;
  /** Per-pod stages to break the time down by (workloads-stages.ts). */
  stages?: { watch: StoreWatch; list: Stage[] };
}

export interface PhaseResult {
  name: string;
  pods: number;
  seconds: number;
  /** Seconds from the start to each milestone. */
  milestones: Record<string, number>;
  managerWrites: number;
  managerFailedWrites: number;
  writesPerPod: number;
  writesByKind: Record<string, KindStats>;
  /** Writes of the other agents (kubelet, scheduler, ...) for comparison. */
  otherWrites: Record<string, number>;
  /** The kubelets' writes by verb and resource (pod status writes per pod: docs/design/performance.md §14). */
  kubeletWrites: Record<string, KindStats>;
  managerReads: number;
  /** Mean API handler time of a manager write, ms. */
  managerWriteMs: number;
  /** Event-loop delay of this process (the plane) during the phase, ms: p50, p99, max. */
  planeLoopDelayMs: { p50: number; p99: number; max: number };
  managerCpuSeconds: number;
  planeCpuSeconds: number;
  managerRssMiB: number;
  reconciles: Record<string, Reconciles>;
  /** Admission webhook calls the API server made (by webhook name), mean ms from request to response. */
  webhookCalls: Record<string, WebhookStats>;
  /** The same calls as the manager's webhook server timed its handler (by path). */
  webhookHandler: Record<string, WebhookStats>;
  stages?: StageSummary;
}

export interface WebhookStats {
  count: number;
  meanMs: number;
}

export interface Goal {
  name: string;
  met: boolean;
  value: string;
}

export interface ScenarioOutcome {
  phases: PhaseResult[];
  /** Derived figures (ratios, checks) shown under the table. */
  facts: Record<string, string | number>;
  goals: Goal[];
}

export interface ScenarioResult extends ScenarioOutcome {
  name: string;
  title: string;
  setupSeconds: number;
  seconds: number;
  manager: ProcUsage;
  /** The manager once its webhooks served, before the scenario. */
  managerIdle: ProcUsage;
  /** Watches the manager opened by kind once ready: one per informer (shared caches: 1 per kind). */
  managerWatches: Record<string, number>;
}

/** One workload scenario; add new ones to the list in workloads.ts. */
export interface Scenario {
  /** `--only` key. */
  name: string;
  title: string;
  run(env: BenchEnv): Promise<ScenarioOutcome>;
}

export interface BenchEnv {
  plane: BenchPlane;
  manager: ManagerProc;
  options: BenchOptions;
  measure(spec: PhaseSpec): Promise<PhaseResult>;
}
