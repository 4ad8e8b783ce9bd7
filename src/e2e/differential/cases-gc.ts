/**
 * Cascading deletion through the garbage collector (kube-controller-manager on the real side):
 * background, foreground, orphan and dangling owner references. Outcomes are polled for.
 */
import type { DiffApi, Json } from './api.js';
import { configMap, must, ownerRef, paths, type CaseContext, type DiffCase } from './case-kit.js';
import { itemNames, statusOf } from './normalize.js';

/** An owner ConfigMap and two dependents (the second blocks foreground deletion). */
async function family(api: DiffApi, ns: string): Promise<Json> {
  const owner = must(await api.request('POST', paths.configMaps(ns), configMap('owner')), 'owner').body;
  for (const [name, block] of [['dep-1', false], ['dep-2', true]] as const) {
    const dep = configMap(name, { role: 'dependent' });
    dep.metadata.ownerReferences = [ownerRef(owner, block ? { blockOwnerDeletion: true } : {})];
    must(await api.request('POST', paths.configMaps(ns), dep), name);
  }
  return owner;
}

async function dependents(api: DiffApi, ns: string): Promise<Json[]> {
  return (await api.request('GET', `${paths.configMaps(ns)}?labelSelector=role%3Ddependent`)).body.items;
}

const gone = (api: DiffApi, ctx: CaseContext, path: string) =>
  ctx.poll(() => api.request('GET', path), (r) => r.status === 404, 20_000).then((r) => r.status);

/** The answer to the owner's DELETE; its kind (Status or the object) is compared in cases-delete. */
const deleteView = (res: { status: number; body: Json }) => ({
  http: res.status, finalizers: res.body?.metadata?.finalizers ?? null, deleting: Boolean(res.body?.metadata?.deletionTimestamp),
});

export const gcCases: DiffCase[] = [
  {
    name: 'cascading delete: background removes dependents',
    async run(api, ctx) {
      await family(api, ctx.ns);
      const deleted = await api.request('DELETE', paths.configMaps(ctx.ns, 'owner'), { propagationPolicy: 'Background' });
      const ownerNow = (await api.request('GET', paths.configMaps(ctx.ns, 'owner'))).status;
      const left = await ctx.poll(() => dependents(api, ctx.ns), (d) => d.length === 0, 20_000);
      return { deleted: deleteView(deleted), ownerRightAfter: ownerNow, dependentsLeft: itemNames({ items: left }) };
    },
  },
  {
    name: 'cascading delete: foreground keeps the owner until dependents are gone',
    async run(api, ctx) {
      await family(api, ctx.ns);
      const deleted = await api.request('DELETE', paths.configMaps(ctx.ns, 'owner'), { propagationPolicy: 'Foreground' });
      const ownerStatus = await gone(api, ctx, paths.configMaps(ctx.ns, 'owner'));
      const left = await dependents(api, ctx.ns);
      return { deleted: deleteView(deleted), ownerEventually: ownerStatus, dependentsLeft: itemNames({ items: left }) };
    },
  },
  {
    name: 'cascading delete: orphan strips owner references',
    async run(api, ctx) {
      await family(api, ctx.ns);
      const deleted = await api.request('DELETE', paths.configMaps(ctx.ns, 'owner'), { propagationPolicy: 'Orphan' });
      const ownerStatus = await gone(api, ctx, paths.configMaps(ctx.ns, 'owner'));
      const left = await ctx.poll(() => dependents(api, ctx.ns), (d) => d.every((x) => !x.metadata.ownerReferences), 20_000);
      return {
        deleted: deleteView(deleted), ownerEventually: ownerStatus,
        dependents: left.map((d) => ({ name: d.metadata.name, ownerReferences: d.metadata.ownerReferences ?? null })),
      };
    },
  },
  {
    name: 'garbage collection: a dependent of a missing owner is collected',
    async run(api, ctx) {
      const dangling = configMap('dangling', { role: 'dependent' });
      dangling.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never-existed', uid: '11111111-2222-3333-4444-555555555555' }];
      must(await api.request('POST', paths.configMaps(ctx.ns), dangling), 'dangling');
      const keeper = must(await api.request('POST', paths.configMaps(ctx.ns), configMap('keeper')), 'keeper').body;
      const live = configMap('live', { role: 'dependent' });
      live.metadata.ownerReferences = [ownerRef(keeper)];
      must(await api.request('POST', paths.configMaps(ctx.ns), live), 'live');
      const left = await ctx.poll(() => dependents(api, ctx.ns), (d) => d.length === 1, 20_000);
      return { dependentsLeft: itemNames({ items: left }) };
    },
  },
  {
    name: 'ownerReferences: two controllers and bad references are 422',
    async run(api, { ns }) {
      const owner = must(await api.request('POST', paths.configMaps(ns), configMap('owner')), 'owner').body;
      const twoControllers = configMap('two');
      twoControllers.metadata.ownerReferences = [ownerRef(owner, { controller: true }), { ...ownerRef(owner, { controller: true }), name: 'b', uid: '11111111-2222-3333-4444-555555555555' }];
      const noUid = configMap('nouid');
      noUid.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '' }];
      return {
        twoControllers: statusOf(await api.request('POST', paths.configMaps(ns), twoControllers)),
        noUid: statusOf(await api.request('POST', paths.configMaps(ns), noUid)),
      };
    },
  },
];
