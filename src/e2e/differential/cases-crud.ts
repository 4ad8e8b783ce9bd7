/** Create/read/update/delete of ConfigMaps, Deployments and Pods, and name generation. */
import { configMap, deployment, must, paths, pod, type DiffCase } from './case-kit.js';
import { normalizeObject, outcome, rvMove } from './normalize.js';

export const crudCases: DiffCase[] = [
  {
    name: 'configmap: create, get, update, delete',
    async run(api, { ns }) {
      const created = await api.request('POST', paths.configMaps(ns), configMap('cm', { a: '1' }));
      const got = await api.request('GET', paths.configMaps(ns, 'cm'));
      const changed = { ...got.body, data: { k: 'v2', extra: 'x' } };
      const updated = await api.request('PUT', paths.configMaps(ns, 'cm'), changed);
      const deleted = await api.request('DELETE', paths.configMaps(ns, 'cm'));
      const after = await api.request('GET', paths.configMaps(ns, 'cm'));
      return {
        created: outcome(created), got: outcome(got), updated: outcome(updated),
        updateRv: rvMove(got.body.metadata.resourceVersion, updated.body.metadata.resourceVersion),
        deleted: deleted.status, after: outcome(after),
      };
    },
  },
  {
    name: 'deployment: create returns the whole defaulted object',
    async run(api, { ns }) {
      const created = await api.request('POST', paths.deployments(ns), deployment('web'));
      return { http: created.status, object: normalizeObject(created.body, { keepGoZeroValues: true }) };
    },
  },
  {
    name: 'deployment: get, replace, delete',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web', { replicas: 2 })), 'create');
      const got = await api.request('GET', paths.deployments(ns, 'web'));
      const next = structuredClone(got.body);
      next.spec.replicas = 3;
      next.spec.template.spec.containers[0].image = 'nginx:1.28';
      const replaced = await api.request('PUT', paths.deployments(ns, 'web'), next);
      const deleted = await api.request('DELETE', paths.deployments(ns, 'web'), { propagationPolicy: 'Background' });
      const after = await api.request('GET', paths.deployments(ns, 'web'));
      return { got: outcome(got), replaced: outcome(replaced), deleted: deleted.status, after: outcome(after) };
    },
  },
  {
    name: 'pod: create, get, delete an unscheduled pod',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const created = await api.request('POST', paths.pods(ns), pod('p'));
      const got = await api.request('GET', paths.pods(ns, 'p'));
      const deleted = await api.request('DELETE', paths.pods(ns, 'p'));
      const after = await api.request('GET', paths.pods(ns, 'p'));
      return { created: created.status, got: got.status, phase: got.body?.status?.phase, deleted: deleted.status, after: outcome(after) };
    },
  },
  {
    name: 'generateName: suffix alphabet, validation, explicit name wins',
    async run(api, { ns }) {
      const short = await api.request('POST', paths.configMaps(ns), { metadata: { generateName: 'gen-' } });
      const invalid = await api.request('POST', paths.configMaps(ns), { metadata: { generateName: 'Bad_' } });
      const both = await api.request('POST', paths.configMaps(ns), { metadata: { name: 'given', generateName: 'gen-' } });
      const invalidView = JSON.parse(JSON.stringify(outcome(invalid)).replace(/Bad_[a-z0-9]{5}/g, 'Bad_<suffix>'));
      return { short: outcome(short), invalid: invalidView, nameWins: both.body?.metadata?.name };
    },
  },
  {
    name: 'generateName: a long prefix is truncated so the name fits 63 characters',
    async run(api, { ns }) {
      const long = await api.request('POST', paths.configMaps(ns), { metadata: { generateName: `${'x'.repeat(70)}-` } });
      const name: string = long.body?.metadata?.name ?? '';
      return { http: long.status, length: name.length, prefix: name.slice(0, 58), generateName: long.body?.metadata?.generateName };
    },
  },
  {
    name: 'create: status is dropped on create for kinds with a status subresource',
    async run(api, { ns }) {
      const d = { ...deployment('web'), status: { replicas: 5, observedGeneration: 9 } };
      const created = await api.request('POST', paths.deployments(ns), d);
      return { http: created.status, status: normalizeObject(created.body).status ?? null };
    },
  },
  {
    name: 'create: empty maps and lists in the body',
    async run(api, { ns }) {
      const body = { metadata: { name: 'empty', labels: {}, annotations: {}, finalizers: [] }, data: {}, binaryData: {} };
      const created = await api.request('POST', paths.configMaps(ns), body);
      return { http: created.status, metadata: Object.keys(created.body.metadata).filter((k) => !['managedFields'].includes(k)).sort(), top: Object.keys(created.body).sort() };
    },
  },
  {
    name: 'list: envelope and name ordering',
    async run(api, { ns }) {
      for (const name of ['c', 'a', 'b']) must(await api.request('POST', paths.configMaps(ns), configMap(name, { set: 'x' })), name);
      const list = await api.request('GET', `${paths.configMaps(ns)}?labelSelector=set%3Dx`);
      return {
        http: list.status, kind: list.body.kind, apiVersion: list.body.apiVersion,
        metadataKeys: Object.keys(list.body.metadata).sort(), names: list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      };
    },
  },
  {
    name: 'list: built-in items carry no apiVersion and kind',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('a', { set: 'x' })), 'a');
      const list = await api.request('GET', `${paths.configMaps(ns)}?labelSelector=set%3Dx`);
      return { item: [list.body.items[0]?.apiVersion ?? null, list.body.items[0]?.kind ?? null] };
    },
  },
];
