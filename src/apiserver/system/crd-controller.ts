/**
 * Serves CustomResourceDefinitions: keeps the resource table in step with stored CRDs, writes
 * their status (NamesAccepted, Established, acceptedNames, storedVersions) and, when a CRD is
 * deleted, removes every instance before releasing its cleanup finalizer.
 */
import type { KObject } from '../../api/meta.js';
import type { Registry } from '../registry/registry.js';
import { crdResources, type Converter, type CrdSpec } from '../registry/crd-resources.js';
import { systemContext } from '../registry/context.js';
import { timestamp } from '../registry/core.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { RegistryReader, WatchHandle } from '../registry/reader.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { QueueWorker } from './queue-worker.js';

const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export class CrdController {
  private handle?: WatchHandle;
  /** Spec each CRD is served from; status and finalizer writes must not rebuild its resources (and OpenAPI). */
  private readonly served = new Map<string, unknown>();
  /** Keys are CRD names. */
  private readonly worker = new QueueWorker('crd-controller', (name) => this.sync(name));

  /** `converter` calls CRDs' conversion webhooks; without it every version only rewrites apiVersion. */
  constructor(private readonly registry: Registry, private readonly reader: RegistryReader, private readonly converter?: Converter) {}

  private get crds(): ServedResource {
    return this.registry.table.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  }

  /** Loads every stored CRD synchronously (so a restarted server serves them at once), then follows changes. */
  start(): void {
    const list = this.reader.listStored(this.crds);
    for (const crd of list.items) this.serve(crd);
    this.handle = this.reader.watchStored(this.crds, undefined, list.rv, (e) => this.worker.add(e.object.metadata.name!));
    for (const crd of list.items) this.worker.add(crd.metadata.name!);
    this.worker.start();
  }

  async stop(): Promise<void> {
    this.handle?.stop();
    await this.worker.stop();
  }

  private serve(crd: KObject): void {
    const name = crd.metadata.name!;
    if (deepEqual(this.served.get(name), crd.spec)) return;
    this.served.set(name, crd.spec);
    this.registry.table.removeWhere((r) => r.crdName === name);
    for (const r of crdResources(crd, this.converter)) this.registry.table.add(r);
  }

  /** Level-triggered on the stored CRD: gone means unserved; deleting means clean up; else serve and report. */
  private async sync(name: string): Promise<void> {
    const crd = this.reader.getStored(this.crds, undefined, name);
    if (!crd) {
      this.served.delete(name);
      this.registry.table.removeWhere((r) => r.crdName === name);
      return;
    }
    if (crd.metadata.deletionTimestamp) return this.cleanup(crd);
    this.serve(crd);
    if (!(crd.metadata.finalizers ?? []).includes(cleanupFinalizer)) {
      await this.registry.patch(this.crds, undefined, name, { type: 'merge', patch: { metadata: { finalizers: [...(crd.metadata.finalizers ?? []), cleanupFinalizer] } } }, systemContext());
      return;
    }
    const status = crdStatus(crd, new Date());
    if (deepEqual(stripTimes(status), stripTimes(crd.status))) return;
    await this.registry.patch(this.crds, undefined, name, { type: 'merge', patch: { status }, subresource: 'status' }, systemContext())
      .catch((err) => { if (err?.code !== 404) throw err; });
  }

  private async cleanup(crd: KObject): Promise<void> {
    const served = this.registry.table.all().filter((r) => r.crdName === crd.metadata.name);
    const r = served[0];
    if (r) {
      for (const item of this.reader.listStored(r).items) {
        const m = item.metadata;
        await this.registry.delete(r, m.namespace, m.name!, { gracePeriodSeconds: 0 }, systemContext()).catch(() => undefined);
        if (m.finalizers?.length) await this.registry.patch(r, m.namespace, m.name!, { type: 'merge', patch: { metadata: { finalizers: null } } }, systemContext()).catch(() => undefined);
      }
    }
    const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== cleanupFinalizer);
    await this.registry.patch(this.crds, undefined, crd.metadata.name!, { type: 'merge', patch: { metadata: { finalizers } } }, systemContext()).catch(() => undefined);
  }
}

function stripTimes(status: unknown): unknown {
  const s = structuredClone((status ?? {}) as { conditions?: { lastTransitionTime?: string }[] });
  s.conditions?.forEach((c) => delete c.lastTransitionTime);
  return s;
}

function crdStatus(crd: KObject, now: Date): Record<string, unknown> {
  const spec = crd.spec as CrdSpec;
  const previous = (crd.status ?? {}) as { storedVersions?: string[]; conditions?: { type: string; lastTransitionTime?: string }[] };
  const storage = spec.versions.find((v) => v.storage)?.name;
  const storedVersions = [...new Set([...(previous.storedVersions ?? []), ...(storage ? [storage] : [])])];
  const since = (type: string) => previous.conditions?.find((c) => c.type === type)?.lastTransitionTime ?? timestamp(now);
  const names = { ...spec.names, singular: spec.names.singular ?? spec.names.kind.toLowerCase(), listKind: spec.names.listKind ?? `${spec.names.kind}List` };
  const status = {
    acceptedNames: names,
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: since('NamesAccepted') },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: since('Established') },
    ],
    storedVersions,
  };
  return status;
}
