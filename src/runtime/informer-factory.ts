/**
 * Hands out one informer per (resource type, namespace, selectors), so every controller in a manager
 * shares one cache and one watch per kind, as controller-runtime's cache does. Informers asked for
 * after `start()` start at once.
 */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import type { Logger } from '../machinery/log.js';
import type { Clock } from '../machinery/clock.js';
import { Informer, type InformerOptions } from './informer.js';

export interface InformerSelection {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface SharedInformerFactoryOptions {
  client: Client;
  clock?: Clock;
  log?: Logger;
  backoff?: InformerOptions['backoff'];
  freeze?: boolean;
}

export class SharedInformerFactory {
  private readonly informers = new Map<string, Informer>();
  private started = false;

  constructor(private readonly options: SharedInformerFactoryOptions) {}

  informerFor<T extends KObject = KObject>(type: ResourceType, selection: InformerSelection = {}): Informer<T> {
    const key = [type.group, type.version, type.resource, selection.namespace ?? '', selection.labelSelector ?? '', selection.fieldSelector ?? ''].join('|');
    let informer = this.informers.get(key);
    if (!informer) {
      informer = new Informer({ ...this.options, type, ...selection });
      this.informers.set(key, informer);
      if (this.started) informer.start();
    }
    // One informer per key serves every caller; T only narrows what the caller sees.
    return informer as unknown as Informer<T>;
  }

  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  /** Resolves true once every informer has synced, false if `signal` aborts or one is stopped first. */
  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  stop(): void {
    this.started = false;
    for (const informer of this.informers.values()) informer.stop();
  }
}
