/**
 * Registration of resourcedistribution-controller (gate ResourceDistributionGate): woken by spec
 * changes of its distributions, by namespaces that appear, change labels or go (the distributions
 * they may concern), and by changes of the copies it controls (drift is reverted at once).
 * docs/design/resourcedistribution.md §3.
 */
import type { KObject } from '../../api/meta.js';
import { ResourceDistributions } from '../../api/kruise/resource-types.js';
import { ConfigMaps, Namespaces, Secrets } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper, Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { ResourceDistributionReconciler } from './reconcile.js';
import type { ResourceDistributionObject } from './resource.js';
import { targetsNamespace } from './targets.js';

export const resourceDistributionControllerName = 'resourcedistribution-controller';

interface Caches { rds: ResourceDistributionObject; namespaces: KObject; configMaps: KObject; secrets: KObject }

const keyOf = (rd: ResourceDistributionObject): Request => ({ name: rd.metadata.name! });
const lists = (rd: ResourceDistributionObject, name: string) =>
  [rd.spec?.targets?.includedNamespaces?.list, rd.spec?.targets?.excludedNamespaces?.list].some((l) => l?.some((n) => n.name === name));

/** Distributions a namespace event may change: those targeting it before or after, or naming it. */
function namespaceToRds(rds: Informer<ResourceDistributionObject>): EventMapper<KObject> {
  const concerned = (...states: KObject[]) => rds.list().filter((rd) => states.some((ns) =>
    lists(rd, ns.metadata.name!) || targetsNamespace(rd, ns.metadata.name!, ns.metadata.labels) || (rd.spec?.targets?.allNamespaces ?? false))).map(keyOf);
  return {
    onAdd: (ns) => concerned(ns),
    onDelete: (ns) => concerned(ns),
    onUpdate: (old, ns) => (JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(ns.metadata.labels ?? {})
      || !!old.metadata.deletionTimestamp !== !!ns.metadata.deletionTimestamp ? concerned(old, ns) : []),
  };
}

const copyOwner: EventMapper<KObject> = (() => {
  const owner = (o: KObject): Request[] => {
    const ref = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'ResourceDistribution' && r.apiVersion.startsWith('apps.kruise.io/'));
    return ref ? [{ name: ref.name }] : [];
  };
  return { onUpdate: (_old, o) => owner(o), onDelete: owner };
})();

export function setupResourceDistributionController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<Caches>(resourceDistributionControllerName, { workers: options.workers ?? 3 })
    .for('rds', ResourceDistributions)
    .watches('namespaces', Namespaces, ({ informers }) => namespaceToRds(informers.rds))
    .watches('configMaps', ConfigMaps, () => copyOwner)
    .watches('secrets', Secrets, () => copyOwner)
    .complete(({ informers, client }) => new ResourceDistributionReconciler({ ...informers, client }));
}
