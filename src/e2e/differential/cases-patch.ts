/** JSON merge, JSON and strategic merge patches on a Deployment; patch errors. */
import type { Json } from './api.js';
import { configMap, deployment, jsonPatch, mergePatch, must, paths, strategicPatch, widget, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';

const twoContainers = [
  { name: 'a', image: 'busybox:1', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '1' }], ports: [{ containerPort: 80 }] },
  { name: 'b', image: 'busybox:1', args: ['one', 'two'] },
];

/** The pod template's containers, the part of a Deployment the patch cases change. */
function containersOf(res: { status: number; body: Json }): unknown {
  if (res.status >= 400) return { http: res.status, reason: res.body?.reason, message: res.body?.message };
  return res.body.spec.template.spec.containers.map((c: Json) => ({ name: c.name, image: c.image, env: c.env, args: c.args, ports: c.ports }));
}

export const patchCases: DiffCase[] = [
  {
    name: 'merge patch: null deletes, lists are replaced',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), { ...deployment('web', { containers: twoContainers }), metadata: { name: 'web', labels: { app: 'web', drop: 'me' } } }), 'create');
      const res = await api.request('PATCH', paths.deployments(ns, 'web'), {
        metadata: { labels: { drop: null, add: 'yes' } },
        spec: { template: { spec: { containers: [{ name: 'a', image: 'busybox:2' }] } } },
      }, mergePatch);
      return { http: res.status, labels: res.body.metadata?.labels, containers: containersOf(res) };
    },
  },
  {
    name: 'JSON patch: add, replace, remove, escapes and append',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web', { containers: twoContainers })), 'create');
      const res = await api.request('PATCH', paths.deployments(ns, 'web'), [
        { op: 'add', path: '/metadata/annotations', value: {} },
        { op: 'add', path: '/metadata/annotations/example.com~1note', value: 'n' },
        { op: 'replace', path: '/spec/replicas', value: 3 },
        { op: 'add', path: '/spec/template/spec/containers/1/args/-', value: 'three' },
        { op: 'remove', path: '/spec/template/spec/containers/0/env/1' },
        { op: 'copy', from: '/spec/template/spec/containers/0/image', path: '/spec/template/spec/containers/1/image' },
      ], jsonPatch);
      return { http: res.status, annotations: res.body.metadata?.annotations, replicas: res.body.spec?.replicas, containers: containersOf(res) };
    },
  },
  {
    name: 'JSON patch: a failed test is 422 Invalid and changes nothing',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const p = (ops: unknown) => api.request('PATCH', paths.deployments(ns, 'web'), ops, jsonPatch);
      const failed = await p([{ op: 'test', path: '/spec/replicas', value: 5 }, { op: 'replace', path: '/spec/replicas', value: 2 }]);
      const after = (await api.request('GET', paths.deployments(ns, 'web'))).body.spec.replicas;
      const passes = await p([{ op: 'test', path: '/spec/replicas', value: 1 }, { op: 'replace', path: '/spec/replicas', value: 2 }]);
      return { failed: { http: failed.status, reason: failed.body?.reason, code: failed.body?.code }, replicasAfterFailure: after, passes: [passes.status, passes.body?.spec?.replicas] };
    },
  },
  {
    name: 'JSON patch: error messages for a failed test, a missing path and a non-list body',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const p = (ops: unknown) => api.request('PATCH', paths.deployments(ns, 'web'), ops, jsonPatch);
      return {
        testFails: statusOf(await p([{ op: 'test', path: '/spec/replicas', value: 5 }])),
        missingPath: statusOf(await p([{ op: 'replace', path: '/spec/nothere/x', value: 1 }])),
        notAList: statusOf(await p({ op: 'add' })),
      };
    },
  },
  {
    name: 'strategic merge patch: kubectl apply body with $setElementOrder',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web', { containers: twoContainers })), 'create');
      const res = await api.request('PATCH', paths.deployments(ns, 'web'), {
        spec: { template: { spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }, { name: 'c' }],
          containers: [
            { name: 'a', '$setElementOrder/env': [{ name: 'Y' }, { name: 'X' }], env: [{ name: 'X', value: '2' }] },
            { name: 'c', image: 'busybox:3' },
          ],
        } } },
      }, strategicPatch);
      return { containers: containersOf(res) };
    },
  },
  {
    name: 'strategic merge patch: $patch delete, $deleteFromPrimitiveList, replace',
    async run(api, { ns }) {
      const d = deployment('web', { containers: twoContainers });
      d.metadata.finalizers = ['example.com/a', 'example.com/b'];
      must(await api.request('POST', paths.deployments(ns), d), 'create');
      const res = await api.request('PATCH', paths.deployments(ns, 'web'), {
        metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] },
        spec: { template: { spec: { containers: [{ name: 'b', $patch: 'delete' }, { name: 'a', env: [{ name: 'Z', value: 'z' }], ports: [{ containerPort: 81 }] }] } } },
      }, strategicPatch);
      const replace = await api.request('PATCH', paths.deployments(ns, 'web'), {
        spec: { template: { spec: { containers: [{ name: 'only', image: 'busybox:9' }], $patch: 'replace' } } },
      }, strategicPatch);
      must(await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { finalizers: null } }, mergePatch), 'unfinalize');
      return {
        finalizers: res.body.metadata?.finalizers, containers: containersOf(res),
        replace: replace.status >= 400 ? statusOf(replace) : {
          http: replace.status, names: replace.body.spec.template.spec.containers.map((c: Json) => c.name),
          restartPolicy: replace.body.spec.template.spec.restartPolicy,
        },
      };
    },
  },
  {
    name: 'strategic merge patch: an unknown $patch directive',
    async run(api, { ns }) {
      must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      return { badDirective: statusOf(await api.request('PATCH', paths.deployments(ns, 'web'), { spec: { $patch: 'explode' } }, strategicPatch)) };
    },
  },
  {
    name: 'patch: strategic merge on a custom resource is 415, merge patch works',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w')), 'widget');
      const smp = await api.request('PATCH', paths.widgets(ns, 'w'), { spec: { color: 'blue' } }, strategicPatch);
      const merge = await api.request('PATCH', paths.widgets(ns, 'w'), { spec: { color: 'blue' } }, mergePatch);
      return {
        smpOnCr: { http: smp.status, reason: smp.body?.reason, code: smp.body?.code, message: smp.body?.message },
        mergeOnCr: { http: merge.status, color: merge.body?.spec?.color, owners: merge.body?.metadata?.managedFields?.map((m: Json) => m.manager) },
        missing: statusOf(await api.request('PATCH', paths.widgets(ns, 'nope'), { spec: {} }, mergePatch)),
      };
    },
  },
  {
    name: 'patch errors: Status details of 415 answers',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w')), 'widget');
      must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'cm');
      return {
        smpOnCr: statusOf(await api.request('PATCH', paths.widgets(ns, 'w'), { spec: { color: 'blue' } }, strategicPatch)),
        textPlain: statusOf(await api.request('PATCH', paths.configMaps(ns, 'cm'), '{}', { 'content-type': 'text/plain' })),
        missing: statusOf(await api.request('PATCH', paths.configMaps(ns, 'nope'), { data: {} }, strategicPatch)),
      };
    },
  },
];
