/** Status bodies of common failures: AlreadyExists, NotFound, BadRequest and Invalid. */
import { configMap, deployment, mergePatch, must, paths, type DiffCase } from './case-kit.js';
import { statusCode, statusOf } from './normalize.js';

export const errorCases: DiffCase[] = [
  {
    name: 'AlreadyExists status body',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('dup')), 'first');
      must(await api.request('POST', paths.deployments(ns), deployment('dup')), 'first');
      return {
        configMap: statusOf(await api.request('POST', paths.configMaps(ns), configMap('dup'))),
        deployment: statusOf(await api.request('POST', paths.deployments(ns), deployment('dup'))),
      };
    },
  },
  {
    name: 'NotFound status bodies (object, group, namespace)',
    async run(api, { ns }) {
      return {
        configMap: statusOf(await api.request('GET', paths.configMaps(ns, 'missing'))),
        deployment: statusOf(await api.request('GET', paths.deployments(ns, 'missing'))),
        deleteMissing: statusOf(await api.request('DELETE', paths.configMaps(ns, 'missing'))),
        putMissing: statusOf(await api.request('PUT', paths.configMaps(ns, 'missing'), { ...configMap('missing'), metadata: { name: 'missing', resourceVersion: '5' } })),
        patchMissing: statusOf(await api.request('PATCH', paths.configMaps(ns, 'missing'), { data: { a: 'b' } }, { 'content-type': 'application/merge-patch+json' })),
        createInMissingNamespace: statusOf(await api.request('POST', paths.configMaps(`${ns}-absent`), configMap('x'))),
        namespace: statusOf(await api.request('GET', paths.namespace(`${ns}-absent`))),
      };
    },
  },
  {
    name: 'BadRequest: namespace or name in the body differs from the URL',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('cm')), 'create');
      const otherNs = { ...configMap('x'), metadata: { name: 'x', namespace: 'elsewhere' } };
      const renamed = (await api.request('GET', paths.configMaps(ns, 'cm'))).body;
      renamed.metadata.name = 'other';
      return {
        createOtherNamespace: statusOf(await api.request('POST', paths.configMaps(ns), otherNs)),
        putOtherName: statusOf(await api.request('PUT', paths.configMaps(ns, 'cm'), renamed)),
      };
    },
  },
  {
    name: 'BadRequest: malformed JSON body',
    async run(api, { ns }) {
      return { notJson: statusOf(await api.request('POST', paths.configMaps(ns), '{"metadata":')) };
    },
  },
  {
    name: 'Invalid: object name and label validation messages',
    async run(api, { ns }) {
      return {
        badName: statusOf(await api.request('POST', paths.configMaps(ns), configMap('Bad_Name'))),
        badLabel: statusOf(await api.request('POST', paths.configMaps(ns), configMap('ok', { 'bad key!': 'v', good: 'x'.repeat(64) }))),
      };
    },
  },
  {
    name: 'Invalid: create without a name',
    async run(api, { ns }) {
      return { noName: statusOf(await api.request('POST', paths.configMaps(ns), { metadata: {} })) };
    },
  },
  {
    name: 'Invalid: deployment field paths in causes',
    async run(api, { ns }) {
      return { invalid: statusCode(await api.request('POST', paths.deployments(ns), invalidDeployment())) };
    },
  },
  {
    name: 'Invalid: immutable deployment selector',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'create');
      const next = structuredClone(created.body);
      next.spec.selector.matchLabels = { app: 'web', tier: 'x' };
      next.spec.template.metadata.labels = { app: 'web', tier: 'x' };
      return { immutable: statusCode(await api.request('PUT', paths.deployments(ns, 'web'), next)) };
    },
  },
  {
    name: 'Invalid: messages that quote composite values',
    async run(api, { ns }) {
      const held = { ...deployment('web'), metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['example.com/keep'] } };
      const created = must(await api.request('POST', paths.deployments(ns), held), 'create');
      const next = structuredClone(created.body);
      next.spec.selector.matchLabels = { app: 'web', tier: 'x' };
      next.spec.template.metadata.labels = { app: 'web', tier: 'x' };
      const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: '11111111-2222-3333-4444-555555555555', controller: true };
      const twoControllers = { ...configMap('two'), metadata: { name: 'two', ownerReferences: [owner, { ...owner, name: 'b', uid: '11111111-2222-3333-4444-666666666666' }] } };
      const deployInvalid = await api.request('POST', paths.deployments(ns), invalidDeployment());
      const immutable = await api.request('PUT', paths.deployments(ns, 'web'), next);
      must(await api.request('DELETE', paths.deployments(ns, 'web')), 'delete');
      const newFinalizer = await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { finalizers: ['example.com/keep', 'example.com/new'] } }, mergePatch);
      must(await api.request('PATCH', paths.deployments(ns, 'web'), { metadata: { finalizers: null } }, mergePatch), 'release');
      return {
        deployment: statusOf(deployInvalid), immutable: statusOf(immutable), newFinalizer: statusOf(newFinalizer),
        twoControllers: statusOf(await api.request('POST', paths.configMaps(ns), twoControllers)),
      };
    },
  },
];

function invalidDeployment() {
  const d = deployment('bad', { replicas: -1, containers: [{ name: 'Bad', image: '' }] });
  d.spec.selector.matchLabels = { app: 'other' };
  return d;
}
