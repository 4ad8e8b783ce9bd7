/** Label and field selectors, pagination. */
import { configMap, must, paths, pod, query, type DiffCase } from './case-kit.js';
import type { DiffApi } from './api.js';
import { itemNames, statusOf } from './normalize.js';

async function namesFor(api: DiffApi, path: string, params: Record<string, string>) {
  const res = await api.request('GET', `${path}${query(params)}`);
  return res.status === 200 ? itemNames(res.body) : statusOf(res);
}

async function seedLabelled(api: DiffApi, ns: string): Promise<void> {
  const objects: [string, Record<string, string>][] = [
    ['none', {}], ['env-prod', { env: 'prod' }], ['env-dev', { env: 'dev', tier: 'web' }],
    ['tier-db', { tier: 'db' }], ['prefixed', { 'example.com/role': 'x', env: 'prod' }],
  ];
  for (const [name, labels] of objects) must(await api.request('POST', paths.configMaps(ns), configMap(name, labels)), name);
}

export const selectorCases: DiffCase[] = [
  {
    name: 'label selector grammar: =, ==, !=, in, notin, exists, !k',
    async run(api, { ns }) {
      await seedLabelled(api, ns);
      const selectors = [
        'env=prod', 'env==prod', 'env!=prod', 'env in (prod,dev)', 'env notin (prod)', 'env', '!env', 'env,tier',
        'tier notin (web),!env', 'example.com/role=x', 'env in ()', 'env=', 'env!=', '', ' env = prod ',
      ];
      const out: Record<string, unknown> = {};
      for (const s of selectors) out[`[${s}]`] = await namesFor(api, paths.configMaps(ns), { labelSelector: s });
      return out;
    },
  },
  {
    name: 'label selector: invalid syntax is 400',
    async run(api, { ns }) {
      const selectors = ['env=(prod', 'env in prod', '=prod', 'env=a b', 'env notin', 'Bad Key=1', 'env=' + 'v'.repeat(64), 'env>1', '!env=x'];
      const out: Record<string, unknown> = {};
      for (const s of selectors) out[`[${s}]`] = await namesFor(api, paths.configMaps(ns), { labelSelector: s });
      return out;
    },
  },
  {
    name: 'field selector: metadata.name and metadata.namespace',
    async run(api, { ns }) {
      await seedLabelled(api, ns);
      const out: Record<string, unknown> = {};
      for (const s of ['metadata.name=env-dev', 'metadata.name==env-dev', 'metadata.name!=env-dev', `metadata.namespace=${ns}`,
        'metadata.namespace=elsewhere', 'metadata.name=env-dev,metadata.name=none', 'metadata.name=']) {
        out[`[${s}]`] = await namesFor(api, paths.configMaps(ns), { fieldSelector: s });
      }
      return out;
    },
  },
  {
    name: 'field selector: unsupported field on configmaps is 400',
    async run(api, { ns }) {
      const out: Record<string, unknown> = {};
      for (const s of ['data.k=v', 'metadata.labels=x', 'spec.foo=bar']) out[`[${s}]`] = await namesFor(api, paths.configMaps(ns), { fieldSelector: s });
      return out;
    },
  },
  {
    name: 'field selector: pod fields, unsupported pod field and bad syntax',
    needsServiceAccount: true,
    async run(api, { ns }) {
      must(await api.request('POST', paths.pods(ns), pod('p')), 'pod');
      const out: Record<string, unknown> = {};
      for (const s of ['metadata.name~x', 'metadata.name']) out[`configmaps [${s}]`] = await namesFor(api, paths.configMaps(ns), { fieldSelector: s });
      for (const s of ['spec.nodeName=', 'status.phase=Pending', 'status.phase!=Running,spec.restartPolicy=Always', 'spec.schedulerName=default-scheduler', 'spec.foo=bar']) {
        out[`pods [${s}]`] = await namesFor(api, paths.pods(ns), { fieldSelector: s });
      }
      return out;
    },
  },
  {
    name: 'list: limit and continue pages in name order',
    async run(api, { ns }) {
      for (const n of [5, 3, 1, 4, 2, 6, 7]) must(await api.request('POST', paths.configMaps(ns), configMap(`page-${n}`, { page: 'y' })), `page-${n}`);
      const pages: unknown[] = [];
      let cont = '';
      for (let i = 0; i < 5; i++) {
        const res = await api.request('GET', `${paths.configMaps(ns)}${query({ labelSelector: 'page=y', limit: 3, ...(cont ? { continue: cont } : {}) })}`);
        pages.push({ http: res.status, names: itemNames(res.body), more: Boolean(res.body.metadata.continue) });
        cont = res.body.metadata.continue ?? '';
        if (!cont) break;
      }
      const zero = await api.request('GET', `${paths.configMaps(ns)}${query({ labelSelector: 'page=y', limit: 0 })}`);
      return { pages, limitZero: itemNames(zero.body).length };
    },
  },
  {
    name: 'list: remainingItemCount with a selector, invalid continue token',
    async run(api, { ns }) {
      for (const n of [1, 2, 3]) must(await api.request('POST', paths.configMaps(ns), configMap(`page-${n}`, { page: 'y' })), `page-${n}`);
      const first = await api.request('GET', `${paths.configMaps(ns)}${query({ labelSelector: 'page=y', limit: 1 })}`);
      const badToken = statusOf(await api.request('GET', `${paths.configMaps(ns)}${query({ limit: 2, continue: 'not-a-token' })}`));
      return { remainingItemCount: first.body.metadata.remainingItemCount ?? null, badToken };
    },
  },
];
