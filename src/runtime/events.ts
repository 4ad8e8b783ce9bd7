/**
 * An EventRecorder writing core/v1 Events, as client-go's record package does: an identical event
 * (same object, type, reason and message) seen again bumps `count` and `lastTimestamp` on the event
 * already written (a merge patch) instead of creating another; and, like client-go's spam filter,
 * each source and involved object gets a token bucket (burst 25, one more every 5 minutes), so a
 * controller creating a thousand pods for one CloneSet writes 25 events, not a thousand. Writes
 * happen in the background and never throw into the caller; writes for one aggregation key are
 * serialized.
 */
import os from 'node:os';
import type { KObject } from '../api/meta.js';
import { Events } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { isNotFound } from '../machinery/errors.js';
import { logger, type Logger } from '../machinery/log.js';
import { rfc3339 } from '../machinery/time.js';
import { realClock, type Clock } from '../machinery/clock.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  client: Client;
  /** source.component and reportingComponent, e.g. `cloneset-controller`. */
  component: string;
  /** reportingInstance and source.host; defaults to the host name. */
  instance?: string;
  clock?: Clock;
  log?: Logger;
  /** How many distinct events (and spam buckets) to remember (least recently used are forgotten). */
  cacheSize?: number;
  /** Events one source may write about one object in a burst (client-go: 25). */
  spamBurst?: number;
  /** Tokens per second refilling that burst (client-go: 1/300). */
  spamQps?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

interface Written {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
  /** The last write for this key; the next one waits for it. */
  chain: Promise<void>;
}

const maxMessageLength = 1024; // client-go truncates longer messages too

export class EventRecorder {
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly instance: string;
  private readonly cache = new Map<string, Written>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly spamBurst: number;
  private readonly spamQps: number;
  private seq = 0;

  constructor(private readonly options: EventRecorderOptions) {
    if (!options.component) throw new Error('an event recorder needs a component name');
    this.clock = options.clock ?? realClock;
    this.log = (options.log ?? logger('events')).child({ reportingComponent: options.component });
    this.instance = options.instance ?? os.hostname();
    this.spamBurst = options.spamBurst ?? 25;
    this.spamQps = options.spamQps ?? 1 / 300;
    if (!(this.spamBurst >= 1) || !(this.spamQps >= 0)) throw new Error('spamBurst must be at least 1 and spamQps not negative');
  }

  event(obj: KObject, type: EventType, reason: string, message: string): void {
    if (!this.allow(obj)) {
      this.log.debug({ reason, object: { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name } }, 'Event dropped by the spam filter');
      return;
    }
    const msg = message.length > maxMessageLength ? `${message.slice(0, maxMessageLength - 3)}...` : message;
    const key = JSON.stringify([obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name, obj.metadata.uid, type, reason, msg]);
    const now = rfc3339(this.clock.now());
    let entry = this.cache.get(key);
    if (entry) this.cache.delete(key); // re-inserted below: Map order is our LRU order
    const previous = entry?.chain ?? Promise.resolve();
    entry ??= { namespace: obj.metadata.namespace || 'default', name: this.eventName(obj), count: 0, firstTimestamp: now, chain: previous };
    entry.count++;
    const write = entry.count === 1 ? () => this.create(obj, type, reason, msg, entry, now) : () => this.bump(obj, type, reason, msg, entry, now);
    entry.chain = previous.then(write).catch((e: unknown) => this.log.info({ err: e, reason, object: { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name } }, 'Failed to write event'));
    this.cache.set(key, entry);
    if (this.cache.size > (this.options.cacheSize ?? 4096)) this.cache.delete(this.cache.keys().next().value!);
  }

  /** client-go's EventSourceObjectSpamFilter: one token bucket per source and involved object. */
  private allow(obj: KObject): boolean {
    const key = JSON.stringify([obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name, obj.metadata.uid]);
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.spamBurst, at: now };
    this.buckets.delete(key); // re-inserted below: Map order is our LRU order
    bucket.tokens = Math.min(this.spamBurst, bucket.tokens + ((now - bucket.at) / 1000) * this.spamQps);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > (this.options.cacheSize ?? 4096)) this.buckets.delete(this.buckets.keys().next().value!);
    return allowed;
  }

  /** Resolves when every event recorded so far has been written (or failed). */
  async flush(): Promise<void> {
    await Promise.all([...this.cache.values()].map((e) => e.chain));
  }

  private async create(obj: KObject, type: EventType, reason: string, message: string, entry: Written, now: string): Promise<void> {
    const event: KObject = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { namespace: entry.namespace, name: entry.name },
      involvedObject: {
        apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name,
        uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion,
      },
      reason, message, type,
      source: { component: this.options.component, host: this.instance },
      firstTimestamp: entry.firstTimestamp, lastTimestamp: now, count: entry.count,
      reportingComponent: this.options.component, reportingInstance: this.instance,
    };
    await this.options.client.create(Events, event);
  }

  private async bump(obj: KObject, type: EventType, reason: string, message: string, entry: Written, now: string): Promise<void> {
    try {
      await this.options.client.patch(Events, entry.namespace, entry.name, 'merge', { count: entry.count, lastTimestamp: now });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      entry.name = this.eventName(obj); // the event expired or was deleted: write it afresh
      await this.create(obj, type, reason, message, entry, now);
    }
  }

  /** `<object name>.<hex nanoseconds>`, client-go's scheme; a counter keeps names unique within a ms. */
  private eventName(obj: KObject): string {
    const nanos = BigInt(this.clock.now()) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    return `${obj.metadata.name}.${nanos.toString(16)}`;
  }
}

