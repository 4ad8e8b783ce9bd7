/** Optimistic concurrency, no-op writes, generation and status-subresource isolation. */
import type { Json } from './api.js';
import { configMap, deployment, mergePatch, must, paths, query, type DiffCase } from './case-kit.js';
import { eventSummary, outcome, relevant, rvMove, statusOf } from './normalize.js';

const rv = (o: Json): string => o.metadata.resourceVersion;

export const updateCases: DiffCase[] = [
  {
    name: 'update: stale resourceVersion PUT is 409 Conflict',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      must(await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { labels: { bump: '1' } } }, mergePatch), 'bump');
      const stale = structuredClone(created.body);
      stale.spec.replicas = 4;
      const cmCreated = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      must(await api.request('PATCH', paths.configMaps(ns, 'cm'), { data: { k: 'v2' } }, mergePatch), 'cm bump');
      return {
        deployment: statusOf(await api.request('PUT', paths.deployments(ns, 'web'), stale)),
        configMap: statusOf(await api.request('PUT', paths.configMaps(ns, 'cm'), cmCreated.body)),
      };
    },
  },
  {
    name: 'update: an unparsable resourceVersion',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      const badRv = { ...created.body, metadata: { ...created.body.metadata, resourceVersion: 'abc' } };
      return { put: statusOf(await api.request('PUT', paths.configMaps(ns, 'cm'), badRv)) };
    },
  },
  {
    name: 'update: resourceVersion inside a merge patch is a precondition',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'create');
      const bumped = must(await api.request('PATCH', paths.configMaps(ns, 'cm'), { data: { k: 'v2' } }, mergePatch), 'bump');
      const stale = await api.request('PATCH', paths.configMaps(ns, 'cm'), { metadata: { resourceVersion: rv(created.body) }, data: { k: 'v3' } }, mergePatch);
      const current = await api.request('PATCH', paths.configMaps(ns, 'cm'), { metadata: { resourceVersion: rv(bumped.body) }, data: { k: 'v4' } }, mergePatch);
      return { stale: statusOf(stale), current: { http: current.status, data: current.body?.data } };
    },
  },
  {
    name: 'update: PUT without resourceVersion is unconditional',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      must(await api.request('POST', paths.deployments(ns), deployment('web')), 'deploy');
      const dep = deployment('web', { replicas: 3 });
      return {
        configMap: outcome(await api.request('PUT', paths.configMaps(ns, 'cm'), configMap('cm', {}, { k: 'new' }))),
        deployment: statusOrReplicas(await api.request('PUT', paths.deployments(ns, 'web'), dep)),
      };
    },
  },
  {
    name: 'update: no-op PUT and PATCH keep the resourceVersion and emit no event',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const w = await api.watch(`${paths.deployments(ns)}${query({ watch: true, resourceVersion: rv(created.body) })}`);
      const got = (await api.request('GET', paths.deployments(ns, 'web'))).body;
      const put = await api.request('PUT', paths.deployments(ns, 'web'), got);
      const patch = await api.request('PATCH', paths.deployments(ns, 'web'), { spec: { replicas: 1 } }, mergePatch);
      const marker = must(await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { labels: { marker: 'x' } } }, mergePatch), 'marker');
      const events = relevant(await w.until((e) => e.length >= 1));
      w.stop();
      return {
        put: { http: put.status, rv: rvMove(rv(got), rv(put.body)), managedFieldsChanged: JSON.stringify(put.body.metadata.managedFields) !== JSON.stringify(got.metadata.managedFields) },
        patch: { http: patch.status, rv: rvMove(rv(got), rv(patch.body)) },
        markerRv: rvMove(rv(got), rv(marker.body)),
        events: eventSummary(events).map((e, i) => `${e} ${events[i].object.metadata.labels?.marker ?? '-'}`),
      };
    },
  },
  {
    name: 'update: generation moves on spec changes only',
    async run(api, { ns }) {
      const gen = (o: Json) => o.metadata.generation as number;
      const steps: Record<string, unknown> = {};
      const created = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      steps.create = gen(created.body);
      const p = (body: Json, sub = '') => api.request('PATCH', `${paths.deployments(ns, 'web')}${sub}`, body, mergePatch);
      steps.label = gen((await p({ metadata: { labels: { x: 'y' } } })).body);
      steps.replicas = gen((await p({ spec: { replicas: 2 } })).body);
      steps.template = gen((await p({ spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } })).body);
      steps.status = gen((await p({ status: { observedGeneration: 3, replicas: 1 } }, '/status')).body);
      steps.userGeneration = gen((await p({ metadata: { generation: 42 } })).body);
      const cm = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      steps.configMapGeneration = cm.body.metadata.generation ?? null;
      return steps;
    },
  },
  {
    name: 'update: a Deployment annotation change bumps generation',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const annotated = await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { annotations: { note: 'n' } } }, mergePatch);
      const cm = must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      const cmAnnotated = await api.request('PATCH', paths.configMaps(ns, 'cm'), { metadata: { annotations: { note: 'n' } } }, mergePatch);
      return { deployment: annotated.body.metadata.generation, configMap: [cm.body.metadata.generation ?? null, cmAnnotated.body.metadata.generation ?? null] };
    },
  },
  {
    name: 'status subresource: spec ignored on /status, status ignored on the main resource',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const withStatus = structuredClone(created.body);
      withStatus.status = { replicas: 3, observedGeneration: 1 };
      withStatus.spec.replicas = 7;
      withStatus.metadata.labels.fromStatus = 'yes';
      const statusPut = await api.request('PUT', `${paths.deployments(ns, 'web')}/status`, withStatus);
      const mainPatch = await api.request('PATCH', paths.deployments(ns, 'web'), { spec: { replicas: 2 }, status: { replicas: 0 } }, mergePatch);
      const statusGet = await api.request('GET', `${paths.deployments(ns, 'web')}/status`);
      const view = (o: Json) => ({ replicas: o.spec?.replicas, status: o.status, labels: o.metadata?.labels, generation: o.metadata?.generation });
      return {
        statusPut: { http: statusPut.status, ...view(statusPut.body) },
        mainPatch: { http: mainPatch.status, ...view(mainPatch.body) },
        statusGet: { http: statusGet.status, kind: statusGet.body?.kind, ...view(statusGet.body) },
      };
    },
  },
];

function statusOrReplicas(res: { status: number; body: Json; text: string; warnings: string[] }) {
  return res.status >= 400 ? statusOf(res) : { http: res.status, replicas: res.body.spec.replicas, generation: res.body.metadata.generation };
}
