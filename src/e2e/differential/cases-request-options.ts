/** fieldValidation on built-in kinds and dryRun=All on create, update, patch. */
import { deployment, mergePatch, must, paths, query, type DiffCase } from './case-kit.js';
import { normalizeObject, outcome, rvMove, statusOf } from './normalize.js';

export const requestOptionCases: DiffCase[] = [
  {
    name: 'fieldValidation on a Deployment: Strict 400, Warn header, Ignore, duplicates',
    async run(api, { ns }) {
      const body = (name: string) => {
        const d = deployment(name);
        d.spec.bogus = 1;
        d.spec.template.spec.containers[0].imagePullPolcy = 'Always';
        return d;
      };
      const send = async (name: string, mode?: string, raw?: string) => {
        const r = await api.request('POST', `${paths.deployments(ns)}${mode ? query({ fieldValidation: mode }) : ''}`, raw ?? body(name));
        return r.status >= 400 ? statusOf(r) : { http: r.status, warnings: [...r.warnings].sort() };
      };
      return { strict: await send('s', 'Strict'), warn: await send('w', 'Warn'), ignore: await send('i', 'Ignore'), absent: await send('a') };
    },
  },
  {
    name: 'fieldValidation: duplicate fields in a JSON body',
    async run(api, { ns }) {
      const body = (name: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","name":"${name}"},"data":{"k":"1","k":"2"}}`;
      const send = async (name: string, mode: string) => {
        const r = await api.request('POST', `${paths.configMaps(ns)}${query({ fieldValidation: mode })}`, body(name));
        return r.status >= 400 ? statusOf(r) : { http: r.status, warnings: [...r.warnings].sort(), data: r.body.data };
      };
      return { strict: await send('dup-s', 'Strict'), warn: await send('dup-w', 'Warn'), ignore: await send('dup-i', 'Ignore') };
    },
  },
  {
    name: 'request options: unsupported fieldValidation and dryRun values',
    async run(api, { ns }) {
      return {
        fieldValidation: statusOf(await api.request('POST', `${paths.configMaps(ns)}${query({ fieldValidation: 'Loud' })}`, { metadata: { name: 'a' } })),
        dryRun: statusOf(await api.request('POST', `${paths.configMaps(ns)}${query({ dryRun: 'Sometimes' })}`, { metadata: { name: 'b' } })),
      };
    },
  },
  {
    name: 'dryRun=All create returns the defaulted object and stores nothing',
    async run(api, { ns }) {
      const created = await api.request('POST', `${paths.deployments(ns)}${query({ dryRun: 'All' })}`, deployment('web'));
      const got = await api.request('GET', paths.deployments(ns, 'web'));
      const meta = created.body?.metadata ?? {};
      return {
        created: outcome(created), rvEmpty: meta.resourceVersion === undefined || meta.resourceVersion === '', hasUid: Boolean(meta.uid),
        stored: got.status,
      };
    },
  },
  {
    name: 'dryRun=All update, patch and delete leave the stored object alone',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const dry = query({ dryRun: 'All' });
      const changed = structuredClone(created.body);
      changed.spec.replicas = 5;
      const put = await api.request('PUT', `${paths.deployments(ns, 'web')}${dry}`, changed);
      const patch = await api.request('PATCH', `${paths.deployments(ns, 'web')}${dry}`, { spec: { replicas: 6 } }, mergePatch);
      const del = await api.request('DELETE', `${paths.deployments(ns, 'web')}${dry}`);
      const get = await api.request('GET', paths.deployments(ns, 'web'));
      const stored = await api.request('GET', paths.deployments(ns, 'web'));
      const rv0 = created.body.metadata.resourceVersion;
      return {
        put: { http: put.status, replicas: put.body?.spec?.replicas, generation: put.body?.metadata?.generation, rv: rvMove(rv0, put.body?.metadata?.resourceVersion) },
        patch: { http: patch.status, replicas: patch.body?.spec?.replicas, rv: rvMove(rv0, patch.body?.metadata?.resourceVersion) },
        delete: { http: del.status, stillThere: get.status },
        stored: { replicas: stored.body.spec.replicas, rv: rvMove(rv0, stored.body.metadata.resourceVersion), object: normalizeObject(stored.body).metadata.generation },
      };
    },
  },
];
