/** CustomResourceDefinitions and the custom resources they serve. */
import type { ApiResponse, Json } from './api.js';
import { mergePatch, must, paths, query, widget, type DiffCase } from './case-kit.js';
import { normalizeObject, outcome, statusOf } from './normalize.js';
import { widgetCrd } from './widget-crd.js';

const crdPath = (name = '') => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions${name ? `/${name}` : ''}`;

export const crdCases: DiffCase[] = [
  {
    name: 'CRD: create fills defaults, then Established and NamesAccepted',
    async run(api, { ns, poll }) {
      const crd = widgetCrd(`${ns}.example.com`, 'gadgets', 'Gadget');
      const created = await api.request('POST', crdPath(), crd);
      const ready = await poll(() => api.request('GET', crdPath(crd.metadata.name)),
        (r) => (r.body?.status?.conditions ?? []).some((c: Json) => c.type === 'Established' && c.status === 'True'), 15_000);
      const spec = normalizeObject(created.body)?.spec;
      const status = ready.body.status;
      return {
        http: created.status, specDefaults: { conversion: spec?.conversion, preserveUnknownFields: spec?.preserveUnknownFields, names: spec?.names },
        conditions: (status.conditions as Json[]).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`).sort(),
        acceptedNames: status.acceptedNames, storedVersions: status.storedVersions,
      };
    },
  },
  {
    name: 'custom resource: defaults, pruning and int-or-string',
    async run(api, { ns }) {
      const create = (name: string, spec: Json) => api.request('POST', paths.widgets(ns), { ...widget(name, spec), bogusTop: 1 });
      const pruned = await create('pruned', { color: 'red', size: '50%', unknown: 1, nested: {}, extra: { anything: { deep: 1 } } });
      const intSize = await create('int', { color: 'green', size: 3 });
      const noNested = await create('bare', { color: 'blue' });
      const floatSize = await create('float', { color: 'blue', size: 1.5 });
      const view = (r: ApiResponse) => (r.status >= 400 ? statusOf(r) : { http: r.status, spec: r.body.spec, top: Object.keys(r.body).sort(), warnings: [...r.warnings].sort() });
      return {
        pruned: view(pruned), intSize: view(intSize), noNested: view(noNested), floatSize: view(floatSize),
        readBack: (await api.request('GET', paths.widgets(ns, 'pruned'))).body?.spec,
      };
    },
  },
  {
    name: 'custom resource: validation errors are 422 with field paths',
    async run(api, { ns }) {
      const create = async (spec: Json) => statusOf(await api.request('POST', paths.widgets(ns), widget('bad', spec)));
      return {
        enum: await create({ color: 'purple' }),
        minimum: await create({ color: 'red', replicas: -2 }),
        required: await create({ replicas: 1 }),
        type: await create({ color: 'red', replicas: 'many' }),
        patternAndLength: await create({ color: 'red', label: 'TOO-LONG-LABEL' }),
        setDuplicate: await create({ color: 'red', tags: ['a', 'b', 'a'] }),
        several: await create({ color: 7, replicas: -1 }),
      };
    },
  },
  {
    name: 'custom resource: fieldValidation Strict, Warn and Ignore',
    async run(api, { ns }) {
      const body = (name: string) => ({ ...widget(name, { color: 'red', bogus: 1, nested: { alsoBogus: true } }), topBogus: 'x' });
      const send = async (name: string, mode?: string) => {
        const r = await api.request('POST', `${paths.widgets(ns)}${mode ? query({ fieldValidation: mode }) : ''}`, body(name));
        return r.status >= 400 ? statusOf(r) : { http: r.status, warnings: [...r.warnings].sort(), spec: r.body.spec };
      };
      return { strict: await send('s', 'Strict'), warn: await send('w', 'Warn'), ignore: await send('i', 'Ignore'), absent: await send('a') };
    },
  },
  {
    name: 'custom resource: status subresource isolation and generation',
    async run(api, { ns }) {
      const created = await api.request('POST', paths.widgets(ns), { ...widget('w'), status: { replicas: 9 } });
      const gens: Record<string, unknown> = { create: created.body.metadata.generation, statusOnCreate: created.body.status ?? null };
      const p = (body: Json, sub = '') => api.request('PATCH', `${paths.widgets(ns, 'w')}${sub}`, body, mergePatch);
      const status = await p({ status: { replicas: 2 }, spec: { color: 'blue' } }, '/status');
      gens.statusWrite = { generation: status.body.metadata.generation, color: status.body.spec.color, replicas: status.body.status?.replicas };
      const main = await p({ spec: { color: 'green' }, status: { replicas: 0 } });
      gens.specWrite = { generation: main.body.metadata.generation, color: main.body.spec.color, replicas: main.body.status?.replicas };
      gens.labelWrite = (await p({ metadata: { labels: { a: 'b' } } })).body.metadata.generation;
      return gens;
    },
  },
  {
    name: 'custom resource: scale subresource',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w', { color: 'red', replicas: 2 })), 'create');
      must(await api.request('PATCH', `${paths.widgets(ns, 'w')}/status`, { status: { replicas: 2, selector: 'app=w' } }, mergePatch), 'status');
      const scale = await api.request('GET', `${paths.widgets(ns, 'w')}/scale`);
      const patched = await api.request('PATCH', `${paths.widgets(ns, 'w')}/scale`, { spec: { replicas: 4 } }, mergePatch);
      const after = await api.request('GET', paths.widgets(ns, 'w'));
      return { scale: outcome(scale), patched: outcome(patched), specReplicas: after.body.spec.replicas, generation: after.body.metadata.generation };
    },
  },
  {
    name: 'custom resource: negative replicas through /scale',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w', { color: 'red', replicas: 2 })), 'create');
      return { negative: statusOf(await api.request('PATCH', `${paths.widgets(ns, 'w')}/scale`, { spec: { replicas: -1 } }, mergePatch)) };
    },
  },
  {
    name: 'custom resource: list envelope and NotFound message',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w')), 'create');
      const list = await api.request('GET', paths.widgets(ns));
      return {
        kind: list.body.kind, apiVersion: list.body.apiVersion,
        item: [list.body.items[0]?.apiVersion ?? null, list.body.items[0]?.kind ?? null],
        notFound: statusOf(await api.request('GET', paths.widgets(ns, 'nope'))),
        exists: statusOf(await api.request('POST', paths.widgets(ns), widget('w'))),
      };
    },
  },
];
