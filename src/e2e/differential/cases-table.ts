/** Server-side printing: Table column definitions and rows for built-ins and a custom resource. */
import type { DiffApi, Json } from './api.js';
import { configMap, deployment, must, paths, pod, query, widget, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';

const tableAccept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' };
const age = /^(\d+s|\d+m(\d+s)?|<unknown>)$/;

/** Columns as `name:type[:format][/priority]`, rows as cells (ages as <age>) plus the row object's kind. */
async function table(api: DiffApi, path: string): Promise<unknown> {
  const res = await api.request('GET', path, undefined, tableAccept);
  if (res.status !== 200) return statusOf(res);
  const b = res.body;
  const columns = (b.columnDefinitions ?? []).map((c: Json) => `${c.name}:${c.type}${c.format ? `:${c.format}` : ''}${c.priority ? `/${c.priority}` : ''}`);
  const rows = (b.rows ?? [])
    .filter((r: Json) => !['kube-root-ca.crt', 'default'].includes(r.object?.metadata?.name))
    .map((r: Json) => ({
      cells: r.cells.map((c: unknown) => (typeof c === 'string' && age.test(c) ? '<age>' : c)),
      object: `${r.object?.apiVersion}/${r.object?.kind}`,
    }));
  return { kind: b.kind, apiVersion: b.apiVersion, columns, rows };
}

export const tableCases: DiffCase[] = [
  {
    name: 'Table: pods',
    needsServiceAccount: true,
    async run(api, { ns }) {
      must(await api.request('POST', paths.pods(ns), pod('p', [{ name: 'a', image: 'busybox:1' }, { name: 'b', image: 'busybox:1' }])), 'pod');
      return { list: await table(api, paths.pods(ns)), single: await table(api, paths.pods(ns, 'p')) };
    },
  },
  {
    name: 'Table: deployments and configmaps',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web', { replicas: 2 })), 'deploy');
      must(await api.request('POST', paths.configMaps(ns), configMap('cm', {}, { a: '1', b: '2' })), 'cm');
      return { deployments: await table(api, paths.deployments(ns)), configMaps: await table(api, paths.configMaps(ns)) };
    },
  },
  {
    name: 'Table: custom resource printer columns',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w', { color: 'green', replicas: 3, size: '10%' })), 'widget');
      return {
        list: await table(api, paths.widgets(ns)),
        includeObjectNone: await table(api, `${paths.widgets(ns)}${query({ includeObject: 'None' })}`),
        empty: await table(api, `${paths.widgets(ns)}${query({ labelSelector: 'nothing=here' })}`),
      };
    },
  },
];
