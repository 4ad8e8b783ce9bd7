/** ServiceAccount admission on pod creation: the account must exist, and its token volume is mounted (authorization.md §16). */
import type { Json } from './api.js';
import { must, paths, pod, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';

const suffixed = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-<suffix>'));
const mounts = (p: Json) => [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].map((c: Json) => c.volumeMounts ?? null);
const account = (name: string, automount?: boolean) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name }, ...(automount === undefined ? {} : { automountServiceAccountToken: automount }) });

export const serviceAccountCases: DiffCase[] = [
  {
    name: 'service account admission: a missing ServiceAccount is 403',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const missing = await api.request('POST', paths.pods(ns), pod('p', undefined, { serviceAccountName: 'nope' }));
      return { ...statusOf(missing), message: missing.body?.message, details: missing.body?.details };
    },
  },
  {
    name: 'service account admission: the token volume in every container and init container',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const body = pod('p', [
        { name: 'a', image: 'busybox:1' },
        { name: 'b', image: 'busybox:1', volumeMounts: [{ name: 'x', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] },
      ], { initContainers: [{ name: 'i', image: 'busybox:1' }], volumes: [{ name: 'x', emptyDir: {} }] });
      const created = await api.request('POST', paths.pods(ns), body);
      return suffixed({ http: created.status, volumes: created.body.spec.volumes, mounts: mounts(created.body), account: created.body.spec.serviceAccountName });
    },
  },
  {
    name: 'service account admission: automountServiceAccountToken false on the account or the pod',
    needsServiceAccount: true,
    async run(api, { ns }) {
      must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, account('off', false)), 'sa off');
      must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, account('on')), 'sa on');
      const view = async (name: string, spec: Json) => {
        const r = await api.request('POST', paths.pods(ns), pod(name, undefined, spec));
        return suffixed({ http: r.status, volumes: r.body.spec?.volumes ?? null, mounts: mounts(r.body) });
      };
      return {
        accountOff: await view('a', { serviceAccountName: 'off' }),
        accountOffPodOn: await view('b', { serviceAccountName: 'off', automountServiceAccountToken: true }),
        podOff: await view('c', { serviceAccountName: 'on', automountServiceAccountToken: false }),
      };
    },
  },
];
