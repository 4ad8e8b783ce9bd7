/**
 * Records core/v1 Events about pods without holding up scheduling: events wait in a bounded
 * buffer and a few writers send them. A repeat of the same (pod, type, reason, message) bumps the
 * count of the event already written, as client-go's correlator does, instead of a new object.
 */
import { randomBytes } from 'node:crypto';
import type { KObject } from '../../api/meta.js';
import { Events } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import type { Logger } from '../../machinery/log.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Clock } from '../../machinery/clock.js';

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  component: string;
  log: Logger;
  concurrency?: number;
  /** Events beyond this many waiting are dropped (logged), like a full broadcaster channel. */
  maxPending?: number;
}

interface Written {
  name: string;
  namespace: string;
  count: number;
}

interface Pending {
  key: string;
  build: (now: string) => KObject;
}

export class EventRecorder {
  private readonly pending: Pending[] = [];
  private readonly written = new Map<string, Written>();
  private active = 0;
  private idle: (() => void)[] = [];
  private readonly instance: string;

  constructor(private readonly options: EventRecorderOptions) {
    this.instance = `${options.component}-${randomBytes(4).toString('hex')}`;
  }

  /** `action` is the events.k8s.io verb (Scheduling, Binding). */
  record(obj: KObject, type: 'Normal' | 'Warning', reason: string, action: string, message: string): void {
    if (this.pending.length >= (this.options.maxPending ?? 5000)) {
      this.options.log.info({ reason, name: obj.metadata.name }, 'event buffer full, dropping event');
      return;
    }
    const { namespace = 'default', name = '', uid } = obj.metadata;
    const key = [uid, type, reason, message].join('\u0000');
    this.pending.push({
      key,
      build: (now) => ({
        apiVersion: 'v1', kind: 'Event',
        metadata: { name: `${name}.${randomBytes(8).toString('hex')}`, namespace },
        involvedObject: { apiVersion: obj.apiVersion ?? 'v1', kind: obj.kind ?? 'Pod', namespace, name, uid, resourceVersion: obj.metadata.resourceVersion },
        type, reason, message, action,
        source: { component: this.options.component },
        reportingComponent: this.options.component,
        reportingInstance: this.instance,
        firstTimestamp: now, lastTimestamp: now, count: 1,
      }),
    });
    this.pump();
  }

  /** Resolves once everything recorded so far has been sent (or failed). */
  flush(): Promise<void> {
    if (this.pending.length === 0 && this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.active < (this.options.concurrency ?? 8) && this.pending.length > 0) {
      const next = this.pending.shift()!;
      this.active++;
      void this.send(next).finally(() => {
        this.active--;
        this.pump();
        if (this.active === 0 && this.pending.length === 0) for (const wake of this.idle.splice(0)) wake();
      });
    }
  }

  private async send(p: Pending): Promise<void> {
    const now = rfc3339(this.options.clock.now());
    const seen = this.written.get(p.key);
    try {
      if (seen) {
        seen.count++;
        await this.options.client.patch(Events, seen.namespace, seen.name, 'merge', { count: seen.count, lastTimestamp: now });
        return;
      }
      const ev = p.build(now);
      await this.options.client.create(Events, ev);
      this.remember(p.key, { name: ev.metadata.name!, namespace: ev.metadata.namespace!, count: 1 });
    } catch (e) {
      if (seen) this.written.delete(p.key); // the event is gone (TTL, deleted): write a new one next time
      this.options.log.info({ err: e }, 'could not record event');
    }
  }

  private remember(key: string, entry: Written): void {
    // A bounded memory of recent events, oldest dropped first (Map keeps insertion order).
    if (this.written.size >= 4096) this.written.delete(this.written.keys().next().value!);
    this.written.set(key, entry);
  }
}
