/**
 * The current mutating and validating webhooks, listed once through the registry reader and then
 * kept in step with its watch, so admission never lists the store per request. Webhooks are ordered by
 * configuration name, then by their position in the configuration (kube's order).
 */
import type { KObject } from '../../api/meta.js';
import type { RegistryReader, WatchHandle } from '../registry/reader.js';
import { compileWebhooks, type Webhook, type WebhookType } from './webhook-config.js';

class ConfigurationSet {
  private readonly byName = new Map<string, Webhook[]>();
  /** Flattened, sorted view; replaced (never mutated) on change so a running dispatch keeps its snapshot. */
  hooks: readonly Webhook[] = [];

  constructor(private readonly type: WebhookType) {}

  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', configuration: KObject): void {
    const name = configuration.metadata.name!;
    if (type === 'DELETED') this.byName.delete(name);
    else this.byName.set(name, compileWebhooks(configuration, this.type));
    const names = [...this.byName.keys()].sort();
    this.hooks = names.flatMap((n) => this.byName.get(n)!);
  }
}

export class WebhookSource {
  private readonly mutatingSet = new ConfigurationSet('mutating');
  private readonly validatingSet = new ConfigurationSet('validating');
  private readonly handles: WatchHandle[] = [];

  constructor(reader: RegistryReader) {
    const follow = (plural: string, set: ConfigurationSet) => {
      const r = reader.table.lookup('admissionregistration.k8s.io', 'v1', plural);
      if (!r) return;
      const list = reader.listStored(r);
      for (const item of list.items) set.apply('ADDED', item);
      this.handles.push(reader.watchStored(r, undefined, list.rv, (e) => set.apply(e.type, e.object)));
    };
    follow('mutatingwebhookconfigurations', this.mutatingSet);
    follow('validatingwebhookconfigurations', this.validatingSet);
  }

  get mutating(): readonly Webhook[] { return this.mutatingSet.hooks; }
  get validating(): readonly Webhook[] { return this.validatingSet.hooks; }

  stop(): void {
    for (const h of this.handles) h.stop();
    this.handles.length = 0;
  }
}
