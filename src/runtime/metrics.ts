/**
 * The manager's Prometheus metrics, in a registry of its own (two managers in one test process never
 * share counters), under the names controller-runtime and client-go's workqueue use, so dashboards
 * written for Go controllers work unchanged.
 */
import { Counter, Gauge, Histogram, Registry, exponentialBuckets } from 'prom-client';
import type { QueueMetrics } from '../machinery/workqueue/queue.js';

/** What a controller reports about each reconcile. */
export interface ControllerMetrics {
  reconciled(result: 'success' | 'error' | 'requeue_after', seconds: number): void;
  errored(terminal: boolean): void;
  activeWorkers(delta: number): void;
}

export const noControllerMetrics: ControllerMetrics = { reconciled() {}, errored() {}, activeWorkers() {} };

const reconcileBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const queueBuckets = exponentialBuckets(1e-8, 10, 12);

const results = ['success', 'error', 'requeue', 'requeue_after'] as const;

/** Per controller: reconciles by result and workers busy. */
type ControllerTally = Record<(typeof results)[number], number> & { workers: number };
/** Per queue: its depth and adds. */
type QueueTally = { depth: number; adds: number };

export class RuntimeMetrics {
  readonly registry = new Registry();
  // Counts that move on every event are plain numbers, handed to prom-client only when the registry
  // is read: its label hashing per call cost about 1 % of the embedded plane (performance.md §21).
  private readonly controllers = new Map<string, ControllerTally>();
  private readonly queues = new Map<string, QueueTally>();
  private readonly reconcileErrors = this.counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller', ['controller']);
  private readonly terminalErrors = this.counter('controller_runtime_terminal_reconcile_errors_total', 'Total number of terminal reconciliation errors per controller', ['controller']);
  private readonly reconcileTime = new Histogram({ name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], buckets: reconcileBuckets, registers: [this.registry] });
  private readonly retries = this.counter('workqueue_retries_total', 'Total number of retries handled by workqueue', ['name', 'controller']);
  private readonly queueDuration = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name', 'controller'], buckets: queueBuckets, registers: [this.registry] });
  private readonly workDuration = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes', labelNames: ['name', 'controller'], buckets: queueBuckets, registers: [this.registry] });
  private readonly leaks = this.counter('kruise_expectations_leaked_total', 'Expectations given up after their timeout, per controller', ['controller']);
  readonly leaderStatus = this.gauge('leader_election_master_status', 'Whether this process holds the lease (1) or not (0)', ['name']);

  constructor() {
    this.counter('controller_runtime_reconcile_total', 'Total number of reconciliations per controller', ['controller', 'result'],
      (c) => { for (const [controller, t] of this.controllers) for (const result of results) c.inc({ controller, result }, t[result]); });
    this.gauge('controller_runtime_active_workers', 'Number of currently used workers per controller', ['controller'],
      (g) => { for (const [controller, t] of this.controllers) g.set({ controller }, t.workers); });
    this.gauge('workqueue_depth', 'Current depth of workqueue', ['name', 'controller'],
      (g) => { for (const [name, q] of this.queues) g.set({ name, controller: name }, q.depth); });
    this.counter('workqueue_adds_total', 'Total number of adds handled by workqueue', ['name', 'controller'],
      (c) => { for (const [name, q] of this.queues) c.inc({ name, controller: name }, q.adds); });
  }

  queue(name: string): QueueMetrics {
    const labels = { name, controller: name };
    const tally = this.queues.get(name) ?? { depth: 0, adds: 0 };
    this.queues.set(name, tally);
    return {
      depth: (n) => { tally.depth = n; },
      added: () => { tally.adds++; },
      queueLatency: (s) => this.queueDuration.observe(labels, s),
      workDuration: (s) => this.workDuration.observe(labels, s),
      retried: () => this.retries.inc(labels),
    };
  }

  controller(name: string): ControllerMetrics {
    const labels = { controller: name };
    const tally = this.controllers.get(name) ?? { success: 0, error: 0, requeue: 0, requeue_after: 0, workers: 0 };
    this.controllers.set(name, tally);
    this.reconcileErrors.inc(labels, 0);
    this.terminalErrors.inc(labels, 0);
    return {
      reconciled: (result, seconds) => {
        tally[result]++;
        this.reconcileTime.observe(labels, seconds);
      },
      errored: (terminal) => {
        this.reconcileErrors.inc(labels); // terminal errors count here too, as in controller-runtime
        if (terminal) this.terminalErrors.inc(labels);
      },
      activeWorkers: (delta) => { tally.workers += delta; },
    };
  }

  /** An `onLeak` for a controller's expectations stores. */
  expectationLeak(controller: string): () => void {
    return () => this.leaks.inc({ controller });
  }

  /** `collect`, when given, reports the counter's totals afresh each time the registry is read. */
  private counter(name: string, help: string, labelNames: string[], collect?: (c: Counter) => void): Counter {
    const counter: Counter = new Counter({ name, help, labelNames, registers: [this.registry], collect: collect && (() => { counter.reset(); collect(counter); }) });
    return counter;
  }

  private gauge(name: string, help: string, labelNames: string[], collect?: (g: Gauge) => void): Gauge {
    const gauge: Gauge = new Gauge({ name, help, labelNames, registers: [this.registry], collect: collect && (() => collect(gauge)) });
    return gauge;
  }
}
