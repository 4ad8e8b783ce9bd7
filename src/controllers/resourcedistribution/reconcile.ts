/**
 * resourcedistribution-controller (docs/design/resourcedistribution.md §3): creates the copy in
 * every target namespace, reverts drift of the copies it controls, leaves objects it does not
 * control alone (ConflictOccurred), removes its copies from namespaces that stopped matching, and
 * reports all of it in status. Deleting the distribution removes the copies by garbage collection.
 */
import type { KObject } from '../../api/meta.js';
import { ResourceDistributions } from '../../api/kruise/resource-types.js';
import { ConfigMaps, Secrets } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import { writeOrRequeue, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import {
  decodeResource, distributedObject, isOwnedBy, needsUpdate, resourceHash, type DecodedResource, type ResourceDistributionObject,
} from './resource.js';
import { buildStatus, type Failure } from './status.js';
import { computeTargets } from './targets.js';

export interface ResourceDistributionDeps {
  client: Client;
  rds: Informer<ResourceDistributionObject>;
  namespaces: Informer<KObject>;
  configMaps: Informer<KObject>;
  secrets: Informer<KObject>;
}

const notExists = 'namespace not found or is terminating';
const conflict = 'conflict with existing resources because of the same namespace, group, version, kind and name';
const text = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Batches of 1, 2, 4, ... run in parallel; every namespace is attempted. */
async function slowly(names: string[], fn: (ns: string) => Promise<Failure | undefined>): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (let i = 0, batch = 1; i < names.length; i += batch, batch *= 2) {
    const results = await Promise.all(names.slice(i, i + batch).map(fn));
    failures.push(...results.filter((f): f is Failure => !!f));
  }
  return failures;
}

export class ResourceDistributionReconciler {
  constructor(private readonly d: ResourceDistributionDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const rd = this.d.rds.get(undefined, req.name);
    if (!rd || rd.metadata.deletionTimestamp) return;
    const resource = decodeResource(rd);
    if (!resource) return; // not retried: the webhook refuses such objects
    const { matched, unmatched } = computeTargets(rd, this.d.namespaces.list());
    const hash = resourceHash(rd);
    const distributed = await slowly(matched, (ns) => this.distribute(rd, resource, ns, hash));
    const cleaned = await slowly(unmatched, (ns) => this.clean(rd, resource, ns));
    const failures = [...distributed, ...cleaned];
    const status = buildStatus(rd, matched.length, matched.length - distributed.length, failures, ctx.clock.now());
    if (!deepEqual(status, rd.status)) {
      const retry = await writeOrRequeue(() => this.d.client.updateStatus(ResourceDistributions, { ...rd, status }), 0);
      if (retry) return retry;
    }
    const errors = failures.filter((f) => f.type !== 'ConflictOccurred' && f.type !== 'NamespaceNotExists');
    if (errors.length > 0) throw new Error(`${errors[0].type}: ${errors[0].message}`);
  }

  private cache(r: DecodedResource) {
    return r.kind === 'ConfigMap' ? { informer: this.d.configMaps, type: ConfigMaps } : { informer: this.d.secrets, type: Secrets };
  }

  private async distribute(rd: ResourceDistributionObject, r: DecodedResource, namespace: string, hash: string): Promise<Failure | undefined> {
    const ns = this.d.namespaces.get(undefined, namespace);
    if (!ns || ns.metadata.deletionTimestamp) return { type: 'NamespaceNotExists', namespace, message: notExists };
    const { informer, type } = this.cache(r);
    const live = informer.get(namespace, r.name);
    if (!live) {
      try {
        await this.d.client.create(type, distributedObject(rd, r, namespace, hash));
        return undefined;
      } catch (e) {
        return { type: 'CreateResourceFailed', namespace, message: text(e) };
      }
    }
    if (!isOwnedBy(live, rd)) return { type: 'ConflictOccurred', namespace, message: conflict };
    const stale = live.metadata.annotations?.['kruise.io/resourcedistribution.resource.hashcode'] !== hash;
    if (!needsUpdate(live, r.object) && !stale) return undefined;
    try {
      await this.d.client.update(type, distributedObject(rd, r, namespace, hash, live));
      return undefined;
    } catch (e) {
      return { type: 'UpdateResourceFailed', namespace, message: text(e) };
    }
  }

  private async clean(rd: ResourceDistributionObject, r: DecodedResource, namespace: string): Promise<Failure | undefined> {
    const ns = this.d.namespaces.get(undefined, namespace);
    if (!ns || ns.metadata.deletionTimestamp) return undefined;
    const { informer, type } = this.cache(r);
    const live = informer.get(namespace, r.name);
    if (!live || !isOwnedBy(live, rd)) return undefined;
    try {
      await this.d.client.delete(type, namespace, r.name);
      return undefined;
    } catch (e) {
      return isNotFound(e) ? undefined : { type: 'DeleteResourceFailed', namespace, message: text(e) };
    }
  }
}
