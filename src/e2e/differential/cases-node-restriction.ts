/**
 * A kubelet's identity under `Node,RBAC` and NodeRestriction (authorization.md §17), through the
 * admin impersonating `system:node:<ns>-x` in `system:nodes`: its own Node only, protected labels
 * and taints, and Secrets, pods and tokens only along the graph of the pods bound to it.
 */
import type { DiffApi, Json } from './api.js';
import { must, paths, pod, type CaseContext, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';

const asNode = (node: string) => ({ 'Impersonate-User': `system:node:${node}`, 'Impersonate-Group': 'system:nodes' });
const nodeBody = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
const merge = { 'content-type': 'application/merge-patch+json' };
const secrets = (ns: string, name = '') => `/api/v1/namespaces/${ns}/secrets${name ? `/${name}` : ''}`;
const seen = (r: { status: number; body: Json }) => (r.status < 300 ? { http: r.status } : statusOf(r as never));

async function cleanupNodes(api: DiffApi, names: string[]): Promise<void> {
  for (const n of names) await api.request('DELETE', `/api/v1/nodes/${n}`);
}

export const nodeRestrictionCases: DiffCase[] = [
  {
    name: 'node restriction: a node writes only its own Node, without protected labels or taint changes',
    async run(api, { ns }) {
      const [x, y] = [`${ns}-x`, `${ns}-y`];
      const h = asNode(x);
      try {
        const other = await api.request('POST', '/api/v1/nodes', nodeBody(y), h);
        const protectedLabels = await api.request('POST', '/api/v1/nodes', nodeBody(x, { 'node-restriction.kubernetes.io/a': 'b', 'node-role.kubernetes.io/master': '', 'kops.k8s.io/x': 'y', 'kubernetes.io/hostname': x }), h);
        const own = await api.request('POST', '/api/v1/nodes', nodeBody(x, { 'kubernetes.io/hostname': x, 'topology.kubernetes.io/zone': 'z', 'kubelet.kubernetes.io/k': '1', foo: 'bar' }), h);
        must(await api.request('POST', '/api/v1/nodes', nodeBody(y)), 'node y');
        const patch = (name: string, body: Json) => api.request('PATCH', `/api/v1/nodes/${name}`, body, { ...merge, ...h });
        return {
          other: seen(other), protectedLabels: seen(protectedLabels), own: seen(own),
          restrictedLabel: seen(await patch(x, { metadata: { labels: { 'node-restriction.kubernetes.io/a': 'b' } } })),
          plainLabel: seen(await patch(x, { metadata: { labels: { foo: 'baz' } } })),
          dropHostname: seen(await patch(x, { metadata: { labels: { 'kubernetes.io/hostname': null } } })),
          taints: seen(await patch(x, { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } })),
          otherLabels: seen(await patch(y, { metadata: { labels: { a: 'b' } } })),
          readOther: seen(await api.request('GET', `/api/v1/nodes/${y}`, undefined, h)),
          listAll: seen(await api.request('GET', '/api/v1/nodes', undefined, h)),
          listOwn: seen(await api.request('GET', `/api/v1/nodes?fieldSelector=metadata.name%3D${x}`, undefined, h)),
          deleteOwn: seen(await api.request('DELETE', `/api/v1/nodes/${x}`, undefined, h)),
        };
      } finally {
        await cleanupNodes(api, [x, y]);
      }
    },
  },
  {
    name: 'node authorizer: Secrets, ConfigMaps, pods and tokens only along the graph of its pods',
    needsServiceAccount: true,
    async run(api, { ns, poll }: CaseContext) {
      const [x, y] = [`${ns}-x`, `${ns}-y`];
      const h = asNode(x);
      for (const s of ['s1', 's2']) must(await api.request('POST', secrets(ns), { apiVersion: 'v1', kind: 'Secret', metadata: { name: s }, stringData: { a: 'b' } }), s);
      must(await api.request('POST', paths.configMaps(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: 'b' } }), 'c1');
      must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other' } }), 'sa');
      const onx = must(await api.request('POST', paths.pods(ns), pod('onx', [{ name: 'a', image: 'busybox:1', envFrom: [{ configMapRef: { name: 'c1' } }] }], { nodeName: x, volumes: [{ name: 's', secret: { secretName: 's1' } }] })), 'onx').body;
      const ony = must(await api.request('POST', paths.pods(ns), pod('ony', undefined, { nodeName: y, volumes: [{ name: 's', secret: { secretName: 's2' } }] })), 'ony').body;
      const get = (path: string) => api.request('GET', path, undefined, h);
      // kube's graph follows informers: wait until the node may read what its pod names
      await poll(() => get(secrets(ns, 's1')), (r) => r.status === 200);
      const token = (sa: string, ref?: Json) => api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`,
        { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { boundObjectRef: ref ?? null } }, h);
      const ref = (p: Json, uid = true) => ({ apiVersion: 'v1', kind: 'Pod', name: p.metadata.name, ...(uid ? { uid: p.metadata.uid } : {}) });
      const status = (name: string) => api.request('PATCH', `${paths.pods(ns, name)}/status`, { status: { message: 'hi' } }, { ...merge, ...h });
      return {
        ownSecret: seen(await get(secrets(ns, 's1'))), otherSecret: seen(await get(secrets(ns, 's2'))),
        listSecrets: seen(await get(secrets(ns))), ownConfigMap: seen(await get(paths.configMaps(ns, 'c1'))),
        ownPod: seen(await get(paths.pods(ns, 'onx'))), otherPod: seen(await get(paths.pods(ns, 'ony'))),
        listPods: seen(await get(paths.pods(ns))), listOwnPods: seen(await get(`${paths.pods(ns)}?fieldSelector=spec.nodeName%3D${x}`)),
        unboundToken: seen(await token('default')), tokenWithoutUid: seen(await token('default', ref(onx, false))),
        otherNodeToken: seen(await token('default', ref(ony))), ownToken: seen(await token('default', ref(onx))),
        otherAccountToken: seen(await token('other', ref(onx))),
        ownStatus: seen(await status('onx')), otherStatus: seen(await status('ony')),
        createPod: seen(await api.request('POST', paths.pods(ns), pod('new', undefined, { nodeName: x }), h)),
        evictOther: seen(await api.request('POST', `${paths.pods(ns, 'ony')}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'ony' } }, h)),
        deleteOther: seen(await api.request('DELETE', paths.pods(ns, 'ony'), undefined, h)),
        otherLease: seen(await api.request('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: y } }, h)),
        leaseElsewhere: seen(await api.request('POST', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: x } }, h)),
      };
    },
  },
];
