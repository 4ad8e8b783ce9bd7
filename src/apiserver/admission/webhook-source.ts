/**
 * The current mutating and validating webhooks, read once from the store and then kept in step
 * with its watch, so admission never lists the store per request. Webhooks are ordered by
 * configuration name, then by their position in the configuration (kube's order).
 */
import type { Store, StoreEvent, WatchHandle } from '../storage/store.js';
import type { ResourceTable } from '../registry/resource-table.js';
import { compileWebhooks, type Webhook, type WebhookType } from './webhook-config.js';

class ConfigurationSet {
  private readonly byName = new Map<string, Webhook[]>();
  /** Flattened, sorted view; replaced (never mutated) on change so a running dispatch keeps its snapshot. */
  hooks: readonly Webhook[] = [];

  constructor(private readonly type: WebhookType) {}

  apply(e: StoreEvent): void {
    const name = e.object.metadata.name!;
    if (e.type === 'DELETED') this.byName.delete(name);
    else this.byName.set(name, compileWebhooks(e.object, this.type));
    const names = [...this.byName.keys()].sort();
    this.hooks = names.flatMap((n) => this.byName.get(n)!);
  }
}

export class WebhookSource {
  private readonly mutatingSet = new ConfigurationSet('mutating');
  private readonly validatingSet = new ConfigurationSet('validating');
  private readonly handles: WatchHandle[] = [];

  constructor(store: Store, table: ResourceTable) {
    const follow = (plural: string, set: ConfigurationSet) => {
      const r = table.lookup('admissionregistration.k8s.io', 'v1', plural);
      if (!r) return;
      const prefix = `${r.storagePrefix}/`;
      const list = store.list(prefix);
      for (const item of list.items) set.apply({ type: 'ADDED', key: item.key, object: item.object, rv: item.rv });
      this.handles.push(store.watch(prefix, list.rv, (e) => set.apply(e)));
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
