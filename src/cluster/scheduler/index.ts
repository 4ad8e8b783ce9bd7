/**
 * The embedded scheduler: kube-scheduler's default profile (the filters and scores in this folder)
 * over any API server reached through a Client, in-process or by kubeconfig.
 */
import type { Client } from '../../client/client.js';
import { logger as rootLogger, type Logger } from '../../machinery/log.js';
import { realClock, type Clock } from '../../machinery/clock.js';
import { SharedInformerFactory } from '../../runtime/informer-factory.js';
import { seededRandom, type Random } from './rng.js';
import { Scheduler, type SchedulerStats } from './scheduler.js';
import { DEFAULT_SCHEDULER } from './types.js';

export interface SchedulerOptions {
  client: Client;
  clock?: Clock;
  /** The spec.schedulerName this scheduler serves; default-scheduler by default. */
  name?: string;
  /** Bindings (API calls) in flight at once while the next pods are decided; 16 by default. */
  parallelism?: number;
  logger?: Logger;
  /** Seed for tie-breaking between equally scored nodes (tests); random otherwise. */
  seed?: number;
  /** Share of nodes to find feasible before scoring (1-100); 0 adapts to cluster size like upstream. */
  percentageOfNodesToScore?: number;
  /** Share informers with other controllers; the caller starts and stops it. */
  informers?: SharedInformerFactory;
  /** Queue tuning: backoff of retries and how long an unschedulable pod waits without events. */
  backoff?: { initialMs?: number; maxMs?: number; maxUnschedulableMs?: number; flushIntervalMs?: number };
}

export interface EmbeddedScheduler {
  start(): Promise<void>;
  stop(): Promise<void>;
  stats(): SchedulerStats;
}

export type { SchedulerStats } from './scheduler.js';

export function createScheduler(options: SchedulerOptions): EmbeddedScheduler {
  const name = options.name ?? DEFAULT_SCHEDULER;
  const parallelism = options.parallelism ?? 16;
  const pct = options.percentageOfNodesToScore ?? 0;
  if (!options.client) throw new Error('scheduler: a client is required');
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) throw new Error(`scheduler: invalid name ${JSON.stringify(name)}`);
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new Error(`scheduler: parallelism must be a positive integer, got ${parallelism}`);
  if (!(pct >= 0 && pct <= 100)) throw new Error(`scheduler: percentageOfNodesToScore must be within 0-100, got ${pct}`);
  const clock = options.clock ?? realClock;
  const log = (options.logger ?? rootLogger('scheduler')).child({ scheduler: name });
  const random: Random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  const factory = options.informers ?? new SharedInformerFactory({ client: options.client, clock, log });
  const b = options.backoff ?? {};
  return new Scheduler({
    client: options.client, clock, name, parallelism, log, random, percentageOfNodesToScore: pct,
    factory, ownsFactory: !options.informers,
    queue: { initialBackoffMs: b.initialMs, maxBackoffMs: b.maxMs, maxUnschedulableMs: b.maxUnschedulableMs, flushIntervalMs: b.flushIntervalMs },
  });
}
