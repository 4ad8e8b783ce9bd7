/**
 * Namespace lifecycle. The deletion case keeps its namespace Terminating with a finalizer on a
 * ConfigMap inside it, so the real namespace controller cannot finish before the 403 is probed.
 */
import type { DiffApi, Json } from './api.js';
import { configMap, deployment, mergePatch, must, paths, type CaseContext, type DiffCase } from './case-kit.js';
import { normalizeObject, pick, statusOf } from './normalize.js';

export const namespaceCases: DiffCase[] = [
  {
    name: 'namespace: default, kube-system and kube-public may not be deleted (dry run)',
    async run(api) {
      const out: Record<string, Json> = {};
      for (const name of ['default', 'kube-system', 'kube-public']) {
        const r = await api.request('DELETE', `${paths.namespace(name)}?dryRun=All`);
        out[name] = statusOf(r);
      }
      return out;
    },
  },
  {
    name: 'namespace: create sets the name label, finalizer and phase',
    async run(api, { ns }) {
      const created = await api.request('POST', paths.namespace(), { metadata: { name: `${ns}-x`, labels: { team: 'a', 'kubernetes.io/metadata.name': 'spoofed' } } });
      const badName = await api.request('POST', paths.namespace(), { metadata: { name: 'Not.A.Label' } });
      const view = pick(created.body, ['metadata.labels', 'spec', 'status']);
      return { http: created.status, ...view, badName: statusOf(badName) };
    },
  },
  {
    name: 'managedFields: what the creator owns after server-side defaults',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const nsCreated = await api.request('POST', paths.namespace(), { metadata: { name: `${ns}-m` } });
      const podCreated = await api.request('POST', paths.pods(ns), { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } });
      const fields = (r: { body: Json }) => r.body?.metadata?.managedFields?.map((m: Json) => ({ manager: m.manager, operation: m.operation, fields: normalizeObject(m.fieldsV1) }));
      return { namespace: fields(nsCreated), pod: fields(podCreated) };
    },
  },
  {
    name: 'namespace: deletion goes Terminating, creates are 403, then it is removed',
    async run(api, ctx) {
      const t = await terminating(api, ctx);
      const create = await api.request('POST', paths.configMaps(t.name), configMap('late'));
      const update = await api.request('PATCH', paths.configMaps(t.name, 'held'), { data: { k: 'still writable' } }, mergePatch);
      const heldNow = await api.request('GET', paths.configMaps(t.name, 'held'));
      const gone = await release(api, ctx, t.name);
      return {
        deleted: { http: t.deleted.status, phase: t.deleted.body?.status?.phase, deleting: Boolean(t.deleted.body?.metadata?.deletionTimestamp), finalizers: t.deleted.body?.spec?.finalizers },
        phase: t.namespace.status?.phase,
        createInTerminating: { http: create.status, reason: create.body?.reason, code: create.body?.code, causes: statusOf(create).causes },
        updateInTerminating: update.status,
        contentDeleting: Boolean(heldNow.body?.metadata?.deletionTimestamp), eventually: gone,
      };
    },
  },
  {
    name: 'namespace: Terminating conditions and the 403 Status body',
    async run(api, ctx) {
      // More content held by more finalizers: the messages count per resource and per finalizer.
      const t = await terminating(api, ctx, async (name) => {
        must(await api.request('POST', paths.configMaps(name), { ...configMap('held2'), metadata: { name: 'held2', finalizers: ['example.com/hold', 'example.com/b'] } }), 'held2');
        const d = deployment('held');
        d.metadata.finalizers = ['example.com/hold'];
        must(await api.request('POST', paths.deployments(name), d), 'deployment');
      });
      const create = await api.request('POST', paths.configMaps(t.name), configMap('late'));
      const generated = await api.request('POST', paths.configMaps(t.name), { ...configMap('x'), metadata: { generateName: 'late-' } });
      const grouped = await api.request('POST', paths.deployments(t.name), deployment('late'));
      for (const held of [paths.configMaps(t.name, 'held2'), paths.deployments(t.name, 'held')]) {
        must(await api.request('PATCH', held, { metadata: { finalizers: null } }, mergePatch), 'release');
      }
      await release(api, ctx, t.name);
      return {
        conditions: conditions(t.namespace), createInTerminating: statusOf(create),
        generateName: statusOf(generated), deployment: statusOf(grouped),
      };
    },
  },
];

const conditions = (ns: Json): string[] => (ns?.status?.conditions ?? []).map((c: Json) => `${c.type}=${c.status} ${c.reason}: ${c.message}`).sort();

/** A namespace held in Terminating by a finalizer on a ConfigMap inside it, once the controller has looked at it. */
async function terminating(api: DiffApi, { ns, poll }: CaseContext, more?: (name: string) => Promise<void>) {
  const name = `${ns}-t`;
  must(await api.request('POST', paths.namespace(), { metadata: { name } }), 'namespace');
  must(await api.request('POST', paths.configMaps(name), { ...configMap('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } }), 'held');
  await more?.(name);
  const deleted = await api.request('DELETE', paths.namespace(name));
  const seen = await poll(() => api.request('GET', paths.namespace(name)),
    (r) => conditions(r.body).some((c) => c.startsWith('NamespaceContentRemaining=True')), 15_000);
  return { name, deleted, namespace: seen.body };
}

/**
 * Drops the finalizer and waits for the namespace to go. The real namespace controller handles a
 * namespace event 5 s after it arrives and otherwise re-checks only when its own estimate for the
 * remaining content runs out, so touching the namespace makes the wait shorter.
 */
async function release(api: DiffApi, { poll }: CaseContext, name: string): Promise<number> {
  must(await api.request('PATCH', paths.configMaps(name, 'held'), { metadata: { finalizers: null } }, mergePatch), 'release');
  await api.request('PATCH', paths.namespace(name), { metadata: { labels: { released: 'yes' } } }, mergePatch);
  return (await poll(() => api.request('GET', paths.namespace(name)), (r) => r.status === 404, 20_000)).status;
}
