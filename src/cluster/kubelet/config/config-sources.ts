/**
 * The ConfigMaps and Secrets the simulated kubelets read container environments from (§16). One
 * ConfigMap and one Secret informer per namespace, started the first time a pod of that namespace
 * needs them and shared by every node and pod (never one per pod); a change to any of them is
 * reported, so that containers waiting in CreateContainerConfigError are retried at once.
 */
import { ConfigMaps, Secrets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import type { Clock } from '../../../machinery/clock.js';
import type { Logger } from '../../../machinery/log.js';
import { Informer } from '../../../runtime/informer.js';
import type { EnvObjects } from './container-env.js';
import type { ConfigMap, Secret } from '../../../api/core/index.js';

export interface ConfigSourcesOptions {
  client: Client;
  clock: Clock;
  log: Logger;
  /** A ConfigMap or Secret of `namespace` was added, changed or deleted. */
  onChange(namespace: string): void;
}

interface NamespaceSources {
  configMaps: Informer<ConfigMap>;
  secrets: Informer<Secret>;
  synced: Promise<boolean>;
}

export class ConfigSources {
  private readonly namespaces = new Map<string, NamespaceSources>();
  private readonly stopped = new AbortController();

  constructor(private readonly o: ConfigSourcesOptions) {}

  /** The namespace's ConfigMaps and Secrets, once their caches are filled; undefined once stopped. */
  async objects(namespace: string): Promise<EnvObjects | undefined> {
    if (this.stopped.signal.aborted) return undefined;
    const sources = this.namespaces.get(namespace) ?? this.start(namespace);
    if (!(await sources.synced)) return undefined;
    return {
      configMap: (name) => sources.configMaps.get(namespace, name),
      secret: (name) => sources.secrets.get(namespace, name),
    };
  }

  stop(): void {
    this.stopped.abort();
    for (const { configMaps, secrets } of this.namespaces.values()) {
      configMaps.stop();
      secrets.stop();
    }
    this.namespaces.clear();
  }

  private start(namespace: string): NamespaceSources {
    const { client, clock, log } = this.o;
    const configMaps = new Informer<ConfigMap>({ client, type: ConfigMaps, namespace, clock, log });
    const secrets = new Informer<Secret>({ client, type: Secrets, namespace, clock, log });
    const changed = { onAdd: () => this.o.onChange(namespace), onUpdate: () => this.o.onChange(namespace), onDelete: () => this.o.onChange(namespace) };
    configMaps.addEventHandler(changed);
    secrets.addEventHandler(changed);
    configMaps.start();
    secrets.start();
    const signal = this.stopped.signal;
    const synced = Promise.all([configMaps.waitForSync(signal), secrets.waitForSync(signal)]).then(([a, b]) => a && b);
    const sources = { configMaps, secrets, synced };
    this.namespaces.set(namespace, sources);
    return sources;
  }
}
