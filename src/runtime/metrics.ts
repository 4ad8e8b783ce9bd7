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

export class RuntimeMetrics {
  readonly registry = new Registry();
  private readonly reconcileTotal = this.counter('controller_runtime_reconcile_total', 'Total number of reconciliations per controller', ['controller', 'result']);
  private readonly reconcileErrors = this.counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller', ['controller']);
  private readonly terminalErrors = this.counter('controller_runtime_terminal_reconcile_errors_total', 'Total number of terminal reconciliation errors per controller', ['controller']);
  private readonly reconcileTime = new Histogram({ name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], buckets: reconcileBuckets, registers: [this.registry] });
  private readonly workers = this.gauge('controller_runtime_active_workers', 'Number of currently used workers per controller', ['controller']);
  private readonly depth = this.gauge('workqueue_depth', 'Current depth of workqueue', ['name', 'controller']);
  private readonly adds = this.counter('workqueue_adds_total', 'Total number of adds handled by workqueue', ['name', 'controller']);
  private readonly retries = this.counter('workqueue_retries_total', 'Total number of retries handled by workqueue', ['name', 'controller']);
  private readonly queueDuration = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name', 'controller'], buckets: queueBuckets, registers: [this.registry] });
  private readonly workDuration = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes', labelNames: ['name', 'controller'], buckets: queueBuckets, registers: [this.registry] });
  private readonly leaks = this.counter('kruise_expectations_leaked_total', 'Expectations given up after their timeout, per controller', ['controller']);
  readonly leaderStatus = this.gauge('leader_election_master_status', 'Whether this process holds the lease (1) or not (0)', ['name']);

  queue(name: string): QueueMetrics {
    const labels = { name, controller: name };
    return {
      depth: (n) => this.depth.set(labels, n),
      added: () => this.adds.inc(labels),
      queueLatency: (s) => this.queueDuration.observe(labels, s),
      workDuration: (s) => this.workDuration.observe(labels, s),
      retried: () => this.retries.inc(labels),
    };
  }

  controller(name: string): ControllerMetrics {
    const labels = { controller: name };
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) this.reconcileTotal.inc({ controller: name, result }, 0);
    this.reconcileErrors.inc(labels, 0);
    this.terminalErrors.inc(labels, 0);
    return {
      reconciled: (result, seconds) => {
        this.reconcileTotal.inc({ controller: name, result });
        this.reconcileTime.observe(labels, seconds);
      },
      errored: (terminal) => {
        this.reconcileErrors.inc(labels); // terminal errors count here too, as in controller-runtime
        if (terminal) this.terminalErrors.inc(labels);
      },
      activeWorkers: (delta) => this.workers.inc(labels, delta),
    };
  }

  /** An `onLeak` for a controller's expectations stores. */
  expectationLeak(controller: string): () => void {
    return () => this.leaks.inc({ controller });
  }

  private counter(name: string, help: string, labelNames: string[]): Counter {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge(name: string, help: string, labelNames: string[]): Gauge {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
}
