/** Server-side apply: create, conflicts, force, removal of dropped fields, request errors. */
import type { Json } from './api.js';
import { applyPatch, configMap, deployment, mergePatch, must, paths, query, type DiffCase } from './case-kit.js';
import { normalizeObject, outcome, statusOf } from './normalize.js';

const apply = (manager: string, extra: Record<string, string | boolean> = {}) => query({ fieldManager: manager, ...extra });

/**
 * managedFields without timestamps, sorted by manager: upstream orders entries by operation,
 * then by the second of their last write, so its order depends on the wall clock.
 */
function owners(obj: Json): unknown {
  return (obj?.metadata?.managedFields ?? [])
    .map((m: Json) => ({ manager: m.manager, operation: m.operation, subresource: m.subresource ?? null, fields: normalizeObject(m.fieldsV1) }))
    .sort((a: Json, b: Json) => `${a.manager} ${a.operation}`.localeCompare(`${b.manager} ${b.operation}`));
}

export const applyCases: DiffCase[] = [
  {
    name: 'server-side apply: create through apply',
    async run(api, { ns }) {
      const cm = configMap('applied', { a: '1' }, { one: '1' });
      const created = await api.request('PATCH', `${paths.configMaps(ns, 'applied')}${apply('alice')}`, cm, applyPatch);
      const again = await api.request('PATCH', `${paths.configMaps(ns, 'applied')}${apply('alice')}`, cm, applyPatch);
      return { created: outcome(created), againHttp: again.status, againRvSame: again.body?.metadata?.resourceVersion === created.body?.metadata?.resourceVersion };
    },
  },
  {
    name: 'server-side apply: conflicts are 409 with FieldManagerConflict causes',
    async run(api, { ns }) {
      const url = (m: string) => `${paths.deployments(ns, 'web')}${apply(m)}`;
      must(await api.request('PATCH', url('alice'), deployment('web', { replicas: 2 }), applyPatch), 'alice');
      const bob = await api.request('PATCH', url('bob'), deployment('web', { replicas: 3 }), applyPatch);
      const carol = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:9' }] } } } };
      must(await api.request('PATCH', `${paths.deployments(ns, 'web')}${query({ fieldManager: 'carol' })}`, carol, mergePatch), 'carol');
      const aliceAgain = await api.request('PATCH', url('alice'), deployment('web', { replicas: 2 }), applyPatch);
      const sameValue = await api.request('PATCH', url('dave'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } }, applyPatch);
      return { bob: statusOf(bob), aliceAfterCarol: statusOf(aliceAgain), sameValueShared: { http: sameValue.status, owners: owners(sameValue.body) } };
    },
  },
  {
    name: 'server-side apply: force takes ownership',
    async run(api, { ns }) {
      const url = (m: string, force = false) => `${paths.deployments(ns, 'web')}${apply(m, force ? { force: true } : {})}`;
      must(await api.request('PATCH', url('alice'), deployment('web', { replicas: 2 }), applyPatch), 'alice');
      const forced = await api.request('PATCH', url('bob', true), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 5 } }, applyPatch);
      return { http: forced.status, replicas: forced.body?.spec?.replicas, owners: owners(forced.body) };
    },
  },
  {
    name: 'server-side apply: fields dropped from the next apply are removed',
    async run(api, { ns }) {
      const url = (m: string) => `${paths.configMaps(ns, 'cm')}${apply(m)}`;
      must(await api.request('PATCH', url('alice'), configMap('cm', { l1: 'x', l2: 'y' }, { a: '1', b: '2', c: '3' }), applyPatch), 'first');
      must(await api.request('PATCH', url('bob'), configMap('cm', {}, { c: '3' }), applyPatch), 'bob shares c');
      const second = await api.request('PATCH', url('alice'), configMap('cm', { l1: 'x' }, { a: '1' }), applyPatch);
      return { http: second.status, data: second.body?.data, labels: second.body?.metadata?.labels, owners: owners(second.body) };
    },
  },
  {
    name: 'server-side apply: request errors',
    async run(api, { ns }) {
      const cm = configMap('cm');
      return {
        noManager: statusOf(await api.request('PATCH', paths.configMaps(ns, 'cm'), cm, applyPatch)),
        nameMismatch: statusOf(await api.request('PATCH', `${paths.configMaps(ns, 'other')}${apply('alice')}`, cm, applyPatch)),
        noKind: statusOf(await api.request('PATCH', `${paths.configMaps(ns, 'cm')}${apply('alice')}`, { metadata: { name: 'cm' } }, applyPatch)),
      };
    },
  },
  {
    name: 'server-side apply: a YAML body',
    async run(api, { ns }) {
      const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml-doc\n  labels:\n    tier: web\ndata:\n  k: "v"\n  count: "1"\n';
      return { created: outcome(await api.request('PATCH', `${paths.configMaps(ns, 'yaml-doc')}${apply('alice')}`, yaml, applyPatch)) };
    },
  },
  {
    name: 'server-side apply: YAML 1.1 boolean words as keys and values',
    async run(api, { ns }) {
      const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml-words\ndata:\n  n: "1"\n  "on": "2"\n  plain: "yes"\n';
      const res = await api.request('PATCH', `${paths.configMaps(ns, 'yaml-words')}${apply('alice')}`, yaml, applyPatch);
      return res.status >= 400 ? statusOf(res) : { http: res.status, data: res.body.data };
    },
  },
];
