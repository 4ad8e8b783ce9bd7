/** Deletion: finalizers, preconditions, pod grace and Job defaults (answers: cases-delete-responses.ts). */
import type { Json } from './api.js';
import { configMap, deployment, mergePatch, must, paths, pod, query, type DiffCase } from './case-kit.js';
import { rvMove, statusOf } from './normalize.js';

const metaView = (res: { status: number; body: Json }) => ({
  http: res.status, kind: res.body?.kind, finalizers: res.body?.metadata?.finalizers ?? null, generation: res.body?.metadata?.generation ?? null,
  deletionTimestamp: Boolean(res.body?.metadata?.deletionTimestamp), deletionGracePeriodSeconds: res.body?.metadata?.deletionGracePeriodSeconds ?? null,
});

export const deleteCases: DiffCase[] = [
  {
    name: 'finalizers: delete sets deletionTimestamp, new finalizers rejected, removal deletes',
    async run(api, { ns }) {
      const d = deployment('web');
      d.metadata.finalizers = ['example.com/keep'];
      must(await api.request('POST', paths.deployments(ns), d), 'create');
      const first = await api.request('DELETE', paths.deployments(ns, 'web'));
      const second = await api.request('DELETE', paths.deployments(ns, 'web'));
      const addFinalizer = await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { finalizers: ['example.com/keep', 'example.com/new'] } }, mergePatch);
      const specChange = await api.request('PATCH', paths.deployments(ns, 'web'), { spec: { replicas: 4 } }, mergePatch);
      const clearTimestamp = await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { deletionTimestamp: null } }, mergePatch);
      const removed = await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { finalizers: null } }, mergePatch);
      const after = await api.request('GET', paths.deployments(ns, 'web'));
      return {
        first: metaView(first), second: { ...metaView(second), rv: rvMove(first.body?.metadata?.resourceVersion, second.body?.metadata?.resourceVersion) },
        addFinalizer: { http: addFinalizer.status, reason: addFinalizer.body?.reason }, specChange: metaView(specChange), clearTimestamp: metaView(clearTimestamp),
        removed: metaView(removed), after: statusOf(after),
      };
    },
  },
  {
    name: 'delete: preconditions that do not match are 409',
    async run(api, { ns }) {
      const cm = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      must(await api.request('PATCH', paths.configMaps(ns, 'cm'), { data: { k: 'v2' } }, mergePatch), 'bump');
      const wrongUid = await api.request('DELETE', paths.configMaps(ns, 'cm'), { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } });
      const staleRv = await api.request('DELETE', paths.configMaps(ns, 'cm'), { preconditions: { resourceVersion: cm.body.metadata.resourceVersion } });
      const matching = await api.request('DELETE', paths.configMaps(ns, 'cm'), { preconditions: { uid: cm.body.metadata.uid } });
      return {
        wrongUid: { http: wrongUid.status, reason: wrongUid.body?.reason }, staleRv: { http: staleRv.status, reason: staleRv.body?.reason },
        matching: matching.status, after: (await api.request('GET', paths.configMaps(ns, 'cm'))).status,
      };
    },
  },
  {
    name: 'delete: precondition failure messages',
    async run(api, { ns }) {
      const cm = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      must(await api.request('PATCH', paths.configMaps(ns, 'cm'), { data: { k: 'v2' } }, mergePatch), 'bump');
      return {
        wrongUid: statusOf(await api.request('DELETE', paths.configMaps(ns, 'cm'), { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } })),
        staleRv: statusOf(await api.request('DELETE', paths.configMaps(ns, 'cm'), { preconditions: { resourceVersion: cm.body.metadata.resourceVersion } })),
      };
    },
  },
  {
    name: 'pod: graceful delete of a bound pod, then force',
    needsServiceAccount: true,
    async run(api, { ns }) {
      must(await api.request('POST', paths.pods(ns), pod('p', undefined, { nodeName: 'node-without-kubelet' })), 'pod');
      const graceful = await api.request('DELETE', paths.pods(ns, 'p'));
      const still = await api.request('GET', paths.pods(ns, 'p'));
      const shorter = await api.request('DELETE', `${paths.pods(ns, 'p')}${query({ gracePeriodSeconds: 10 })}`);
      const forced = await api.request('DELETE', `${paths.pods(ns, 'p')}${query({ gracePeriodSeconds: 0 })}`);
      const after = await api.request('GET', paths.pods(ns, 'p'));
      return { graceful: metaView(graceful), still: metaView(still), shorter: metaView(shorter), forced: forced.status, after: statusOf(after) };
    },
  },
  {
    name: 'pod: the response to a forced delete after a graceful one',
    needsServiceAccount: true,
    async run(api, { ns }) {
      must(await api.request('POST', paths.pods(ns), pod('p', undefined, { nodeName: 'node-without-kubelet' })), 'pod');
      must(await api.request('DELETE', `${paths.pods(ns, 'p')}${query({ gracePeriodSeconds: 10 })}`), 'graceful');
      return { forced: metaView(await api.request('DELETE', `${paths.pods(ns, 'p')}${query({ gracePeriodSeconds: 0 })}`)) };
    },
  },
  {
    name: 'delete: a Job without propagationPolicy orphans, with a warning',
    async run(api, { ns, poll }) {
      const job = {
        apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] } } },
      };
      must(await api.request('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, job), 'job');
      const deleted = await api.request('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs/j`);
      const gone = await poll(() => api.request('GET', `/apis/batch/v1/namespaces/${ns}/jobs/j`), (r) => r.status === 404, 15_000);
      return { deleted: metaView(deleted), warnings: deleted.warnings, eventuallyGone: gone.status };
    },
  },
];
