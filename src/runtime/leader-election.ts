/**
 * Leader election on a coordination.k8s.io/v1 Lease, after client-go's leaderelection package. A
 * candidate takes the lease when it does not exist, is released (no holder), or has not changed for
 * a whole lease duration *as observed on our own clock* (immune to clock skew between replicas).
 * Every write is guarded by resourceVersion, so of two racing candidates one gets a 409 and loses.
 * The leader renews every retry period and gives up when no renewal succeeded for the renew deadline.
 */
import { withoutListenerLimit } from './abort.js';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { Leases } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { isAlreadyExists, isConflict, isNotFound } from '../machinery/errors.js';
import { logger, type Logger } from '../machinery/log.js';
import type { Lease } from '../api/core/index.js';
import { realClock, sleep, withTimeout, type Clock } from '../machinery/clock.js';
import { newLease, released, takeOver } from './lease.js';

export interface LeaderElectionOptions {
  client: Client;
  namespace?: string;
  name?: string;
  /** Defaults to `<hostname>_<uuid>`. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  clock?: Clock;
  log?: Logger;
  onStartedLeading(): void;
  /** Leadership was lost (not called by `stop()`). */
  onStoppedLeading(): void;
  onNewLeader?(identity: string): void;
}

export class LeaderElector {
  readonly identity: string;
  readonly namespace: string;
  readonly name: string;
  private readonly o: Required<Pick<LeaderElectionOptions, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>>;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly abort = withoutListenerLimit(new AbortController());
  private leading = false;
  private observed?: { holder: string; renewTime?: string; at: number };
  private loop?: Promise<void>;

  constructor(private readonly options: LeaderElectionOptions) {
    this.o = { leaseDurationMs: options.leaseDurationMs ?? 15_000, renewDeadlineMs: options.renewDeadlineMs ?? 10_000, retryPeriodMs: options.retryPeriodMs ?? 2_000 };
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.o;
    if (retryPeriodMs <= 0) throw new Error('retryPeriod must be positive');
    if (leaseDurationMs <= renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (renewDeadlineMs <= 1.2 * retryPeriodMs) throw new Error('renewDeadline must be greater than 1.2 x retryPeriod');
    this.identity = options.identity ?? `${os.hostname()}_${randomUUID()}`;
    this.namespace = options.namespace ?? 'kube-system';
    this.name = options.name ?? 'kruise-manager';
    this.clock = options.clock ?? realClock;
    this.log = (options.log ?? logger('leader-election')).child({ lease: `${this.namespace}/${this.name}`, identity: this.identity });
  }

  isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops campaigning; when `release` (default), hands the lease back so another takes over at once. */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.abort.abort();
    await this.loop;
    this.leading = false;
    if (options.release ?? true) await this.release();
  }

  private async run(): Promise<void> {
    const { renewDeadlineMs, retryPeriodMs } = this.o;
    const signal = this.abort.signal;
    while (!signal.aborted) {
      if ((await this.tryAcquireOrRenew(renewDeadlineMs)) !== 'held') {
        await sleep(this.clock, retryPeriodMs * (1 + 0.2 * Math.random()), signal);
        continue;
      }
      if (signal.aborted) return;
      this.leading = true;
      this.log.info('Became leader');
      this.notify(() => this.options.onStartedLeading());
      let lastRenew = this.clock.now();
      for (let left = renewDeadlineMs; left > 0; left = renewDeadlineMs - (this.clock.now() - lastRenew)) {
        await sleep(this.clock, Math.min(retryPeriodMs, left), signal);
        if (signal.aborted) return;
        // A renewal must finish within the deadline: a late success would act on a lease others may take.
        const outcome = await this.tryAcquireOrRenew(Math.max(1, renewDeadlineMs - (this.clock.now() - lastRenew)));
        if (outcome === 'held') lastRenew = this.clock.now();
        if (outcome === 'taken') break;
      }
      this.leading = false;
      this.log.info('Lost leadership');
      this.notify(() => this.options.onStoppedLeading());
    }
  }

  /** One attempt to create, take over or renew the lease: held by us, by someone else, or failed. */
  private async tryAcquireOrRenew(timeoutMs: number): Promise<'held' | 'taken' | 'failed'> {
    const client = this.options.client;
    const now = this.clock.now();
    const leaseSeconds = Math.ceil(this.o.leaseDurationMs / 1000);
    try {
      const deadline = this.clock.now() + timeoutMs;
      const call = <T>(p: Promise<T>) => this.call(p, deadline - this.clock.now());
      const lease = await call(client.get<Lease>(Leases, this.namespace, this.name).catch((e: unknown) => {
        if (isNotFound(e)) return undefined;
        throw e;
      }));
      if (!lease) {
        this.observe(await call(client.create<Lease>(Leases, takeOver(newLease(this.namespace, this.name), this.identity, leaseSeconds, now))));
        return 'held';
      }
      this.observe(lease);
      const holder = lease.spec?.holderIdentity ?? '';
      const expiresAt = this.observed!.at + (lease.spec?.leaseDurationSeconds ?? 0) * 1000;
      if (holder !== '' && holder !== this.identity && now < expiresAt) return 'taken';
      this.observe(await call(client.update<Lease>(Leases, takeOver(lease, this.identity, leaseSeconds, now))));
      return 'held';
    } catch (e) {
      if (isConflict(e) || isAlreadyExists(e)) this.log.debug('Lost a race for the lease');
      else this.log.info({ err: e }, 'Failed to acquire or renew the lease');
      return 'failed';
    }
  }

  private async release(): Promise<void> {
    try {
      const lease = await this.call(this.options.client.get<Lease>(Leases, this.namespace, this.name));
      if (lease.spec?.holderIdentity !== this.identity) return;
      await this.call(this.options.client.update<Lease>(Leases, released(lease, this.clock.now())));
      this.log.info('Released the lease');
    } catch (e) {
      if (!isNotFound(e)) this.log.info({ err: e }, 'Failed to release the lease');
    }
  }

  /** Tracks when the lease last changed, on our clock; that is what expiry is measured from. */
  private observe(lease: Lease): void {
    const holder = lease.spec?.holderIdentity ?? '';
    const renewTime = lease.spec?.renewTime;
    if (this.observed?.holder === holder && this.observed.renewTime === renewTime) return;
    if (this.observed?.holder !== holder && holder) this.notify(() => this.options.onNewLeader?.(holder));
    this.observed = { holder, renewTime, at: this.clock.now() };
  }

  /** A throwing callback must not end the election loop. */
  private notify(callback: () => void): void {
    try {
      callback();
    } catch (e) {
      this.log.error({ err: e }, 'Leader election callback failed');
    }
  }

  private call<T>(p: Promise<T>, timeoutMs = this.o.renewDeadlineMs): Promise<T> {
    return withTimeout(this.clock, p, Math.max(1, timeoutMs), () => new Error('lease request timed out'));
  }
}
