/**
 * What a DELETE answers: a Success Status naming the removed object for most kinds, the object
 * itself for kinds whose storage returns it (pods, services) or while something holds it, and the
 * list of deleted items for a collection. Pods deleted at grace 0 are written with their deletion
 * marks before they go, which watchers see.
 */
import type { Json, WatchEvent } from './api.js';
import { configMap, deployment, mergePatch, must, paths, pod, query, widget, type DiffCase } from './case-kit.js';
import { itemNames, relevant } from './normalize.js';

const view = (r: { status: number; body: Json }) => ({
  http: r.status, kind: r.body?.kind, status: r.body?.status ?? null, details: r.body?.details ?? null,
  deleting: Boolean(r.body?.metadata?.deletionTimestamp), grace: r.body?.metadata?.deletionGracePeriodSeconds ?? null,
});

const withoutUids = (o: unknown) => JSON.parse(JSON.stringify(o).replace(/"uid":"[^"]*"/g, '"uid":"<uid>"'));

export const deleteResponseCases: DiffCase[] = [
  {
    name: 'delete: response bodies (immediate, dry run, pending, by kind)',
    needsServiceAccount: true,
    async run(api, { ns }) {
      for (const n of ['now', 'dry']) must(await api.request('POST', paths.configMaps(ns), configMap(n)), n);
      must(await api.request('POST', paths.configMaps(ns), { ...configMap('held'), metadata: { name: 'held', finalizers: ['example.com/keep'] } }), 'held');
      must(await api.request('POST', paths.pods(ns), pod('unscheduled')), 'pod');
      must(await api.request('POST', paths.pods(ns), pod('dry')), 'dry pod');
      must(await api.request('POST', paths.deployments(ns), deployment('web')), 'deployment');
      must(await api.request('POST', paths.widgets(ns), widget('w')), 'widget');
      must(await api.request('POST', `/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } }), 'service');
      const dryRun = query({ dryRun: 'All' });
      const out = {
        immediate: view(await api.request('DELETE', paths.configMaps(ns, 'now'))),
        dryRun: view(await api.request('DELETE', `${paths.configMaps(ns, 'dry')}${dryRun}`)),
        pending: view(await api.request('DELETE', paths.configMaps(ns, 'held'))),
        unscheduledPod: view(await api.request('DELETE', paths.pods(ns, 'unscheduled'))),
        dryRunPod: view(await api.request('DELETE', `${paths.pods(ns, 'dry')}${dryRun}`)),
        deployment: view(await api.request('DELETE', paths.deployments(ns, 'web'))),
        customResource: view(await api.request('DELETE', paths.widgets(ns, 'w'))),
        service: view(await api.request('DELETE', `/api/v1/namespaces/${ns}/services/svc`)),
        dryRunStillThere: [(await api.request('GET', paths.configMaps(ns, 'dry'))).status, (await api.request('GET', paths.pods(ns, 'dry'))).status],
      };
      must(await api.request('PATCH', paths.configMaps(ns, 'held'), { metadata: { finalizers: null } }, mergePatch), 'release');
      return withoutUids(out);
    },
  },
  {
    name: 'deletecollection: the answer is the list of deleted items',
    async run(api, { ns }) {
      for (const n of ['g1', 'g2']) must(await api.request('POST', paths.configMaps(ns), configMap(n, { group: 'g' })), n);
      const selected = query({ labelSelector: 'group=g' });
      const deleted = await api.request('DELETE', `${paths.configMaps(ns)}${selected}`);
      const none = await api.request('DELETE', `${paths.configMaps(ns)}${query({ labelSelector: 'group=none' })}`);
      return {
        deleted: { http: deleted.status, kind: deleted.body?.kind, items: itemNames(deleted.body) },
        nothingMatched: { http: none.status, kind: none.body?.kind, items: itemNames(none.body) },
        left: itemNames((await api.request('GET', `${paths.configMaps(ns)}${selected}`)).body),
      };
    },
  },
  {
    name: 'watch: a pod deleted at grace 0 is MODIFIED with its deletion marks, then DELETED',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const w = await api.watch(`${paths.pods(ns)}${query({ watch: true })}`);
      must(await api.request('POST', paths.pods(ns), pod('unscheduled')), 'unscheduled');
      must(await api.request('DELETE', paths.pods(ns, 'unscheduled')), 'delete unscheduled');
      must(await api.request('POST', paths.pods(ns), pod('bound', undefined, { nodeName: 'node-without-kubelet' })), 'bound');
      must(await api.request('DELETE', `${paths.pods(ns, 'bound')}${query({ gracePeriodSeconds: 30 })}`), 'graceful');
      must(await api.request('DELETE', `${paths.pods(ns, 'bound')}${query({ gracePeriodSeconds: 0 })}`), 'forced');
      const events = relevant(await w.until((e) => relevant(e).filter((x) => x.type === 'DELETED').length >= 2, 10_000));
      w.stop();
      return {
        events: events.map((e: WatchEvent) => {
          const m = e.object.metadata;
          return `${e.type} ${m.name} deleting=${Boolean(m.deletionTimestamp)} grace=${m.deletionGracePeriodSeconds ?? '-'}`;
        }),
      };
    },
  },
];
