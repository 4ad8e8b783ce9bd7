/**
 * Updates that resend Go zero values (`{}`, `[]`, `0`, `""`) for fields the stored object omits:
 * kube-apiserver compares decoded objects, so these are no changes for immutability checks and
 * generation (docs/design/apiserver.md §10).
 */
import type { ApiResponse, Json } from './api.js';
import { deployment, must, paths, pod, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';

const sts = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/statefulsets${name ? `/${name}` : ''}`;
const jobs = (ns: string, name = '') => `/apis/batch/v1/namespaces/${ns}/jobs${name ? `/${name}` : ''}`;
const services = (ns: string, name = '') => `/api/v1/namespaces/${ns}/services${name ? `/${name}` : ''}`;
const claims = (ns: string, name = '') => `/api/v1/namespaces/${ns}/persistentvolumeclaims${name ? `/${name}` : ''}`;

/** What Go's encoder (or a client filling every field) adds to a container it read back. */
function withZeroContainerFields(c: Json): Json {
  return { ...c, resources: { ...(c.resources ?? {}) }, ports: c.ports ?? [], env: c.env ?? [], command: c.command ?? [], workingDir: c.workingDir ?? '', stdin: c.stdin ?? false };
}

function withZeroTemplate(template: Json): Json {
  const t = structuredClone(template);
  t.metadata = { ...t.metadata, creationTimestamp: null, annotations: t.metadata?.annotations ?? {} };
  t.spec.containers = t.spec.containers.map(withZeroContainerFields);
  t.spec.volumes = t.spec.volumes ?? [];
  return t;
}

const view = (res: ApiResponse) => (res.status >= 300 ? statusOf(res as ApiResponse) : { http: res.status, generation: res.body?.metadata?.generation });

export const zeroValueCases: DiffCase[] = [
  {
    name: 'zero values: pod update resending resources {} and empty lists changes only the image',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.pods(ns), pod('p')), 'pod');
      const next = structuredClone(created.body);
      next.spec.containers = next.spec.containers.map((c: Json) => ({ ...withZeroContainerFields(c), image: 'nginx:1.28' }));
      next.spec.nodeSelector = {};
      next.spec.hostname = '';
      const updated = await api.request('PUT', paths.pods(ns, 'p'), next);
      const real = structuredClone(updated.body);
      if (updated.status < 300) real.spec.containers[0].workingDir = '/elsewhere';
      const changed = updated.status < 300 ? await api.request('PUT', paths.pods(ns, 'p'), real) : updated;
      return {
        updated: { ...view(updated), image: updated.body?.spec?.containers?.[0]?.image },
        // A real change is still refused; the real message goes on with a Go struct diff.
        changed: { ...statusOf(changed), message: String(changed.body?.message).split('\n')[0] },
      };
    },
  },
  {
    name: 'zero values: StatefulSet, Deployment and Job updates with Go zero values keep generation',
    async run(api, { ns }) {
      const set = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { ...deployment('s').spec, serviceName: 's' } };
      const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1' }], restartPolicy: 'Never' } } } };
      const created = {
        sts: must(await api.request('POST', sts(ns), set), 'statefulset').body,
        deploy: must(await api.request('POST', paths.deployments(ns), deployment('d')), 'deployment').body,
        job: must(await api.request('POST', jobs(ns), job), 'job').body,
      };
      const resend = (obj: Json) => {
        const next = structuredClone(obj);
        next.spec.template = withZeroTemplate(next.spec.template);
        if (next.spec.selector) next.spec.selector = { ...next.spec.selector, matchExpressions: [] };
        return next;
      };
      const stsNext = resend(created.sts);
      stsNext.spec.volumeClaimTemplates = [];
      const results = {
        sts: await api.request('PUT', sts(ns, 's'), stsNext),
        deploy: await api.request('PUT', paths.deployments(ns, 'd'), resend(created.deploy)),
        job: await api.request('PUT', jobs(ns, 'j'), resend(created.job)),
      };
      return Object.fromEntries(Object.entries(results).map(([k, r]) => [k, view(r)]));
    },
  },
  {
    name: 'zero values: Service and PVC updates with empty strings and lists',
    async run(api, { ns }) {
      const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { selector: { app: 'a' }, ports: [{ port: 80 }] } };
      const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'none', resources: { requests: { storage: '1Gi' } } } };
      const s = must(await api.request('POST', services(ns), svc), 'service').body;
      const c = must(await api.request('POST', claims(ns), pvc), 'claim').body;
      const sNext = { ...s, spec: { ...s.spec, clusterIP: '', clusterIPs: [], externalIPs: [], loadBalancerSourceRanges: [] } };
      const cNext = { ...c, spec: { ...c.spec, volumeName: '', resources: { ...c.spec.resources, limits: {} }, dataSource: null } };
      const sUp = await api.request('PUT', services(ns, 'svc'), sNext);
      const cUp = await api.request('PUT', claims(ns, 'c'), cNext);
      const cChanged = await api.request('PUT', claims(ns, 'c'), { ...cUp.body, spec: { ...cUp.body?.spec, accessModes: ['ReadWriteMany'] } });
      return {
        service: { http: sUp.status, clusterIPKept: sUp.body?.spec?.clusterIP === s.spec.clusterIP },
        claim: cUp.status,
        claimChanged: { ...statusOf(cChanged), message: String(cChanged.body?.message).split('\n')[0] },
      };
    },
  },
];
