/** Pod defaulting and admission side effects, update rules and quantity canonicalisation. */
import type { Json } from './api.js';
import { mergePatch, must, paths, pod, strategicPatch, type DiffCase } from './case-kit.js';
import { normalizeObject, pick, statusOf } from './normalize.js';

const podDefaults = [
  'spec.restartPolicy', 'spec.dnsPolicy', 'spec.terminationGracePeriodSeconds', 'spec.schedulerName', 'spec.securityContext',
  'spec.enableServiceLinks', 'spec.priority', 'spec.preemptionPolicy', 'spec.serviceAccountName', 'spec.serviceAccount', 'status.phase', 'status.qosClass',
];
const containerDefaults = (c: Json) => pick(c, ['name', 'imagePullPolicy', 'terminationMessagePath', 'terminationMessagePolicy', 'ports', 'resources']);

export const podCases: DiffCase[] = [
  {
    name: 'pod defaults: restartPolicy, dnsPolicy, grace period, scheduler, container fields',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const created = await api.request('POST', paths.pods(ns), pod('p', [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }]));
      const obj = normalizeObject(created.body);
      return { http: created.status, pod: pick(obj, podDefaults), containers: obj.spec.containers.map(containerDefaults) };
    },
  },
  {
    name: 'pod defaults: imagePullPolicy by tag',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const images = ['nginx', 'nginx:latest', 'nginx:1.27', 'registry.local:5000/nginx', 'nginx@sha256:' + 'a'.repeat(64), 'registry.local:5000/nginx:latest'];
      const containers = images.map((image, i) => ({ name: `c${i}`, image }));
      containers.push({ name: 'explicit', image: 'nginx', imagePullPolicy: 'Never' } as never);
      const created = await api.request('POST', paths.pods(ns), pod('p', containers));
      return { http: created.status, policies: created.body.spec.containers.map((c: Json) => `${c.image} ${c.imagePullPolicy}`) };
    },
  },
  {
    name: 'pod qosClass and requests copied from limits',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const mk = (name: string, resources: Json) => api.request('POST', paths.pods(ns), pod(name, [{ name: 'c', image: 'busybox:1', resources }]));
      const best = await mk('best', {});
      const burst = await mk('burst', { requests: { cpu: '100m' } });
      const guaranteed = await mk('guaranteed', { limits: { cpu: '1000m', memory: '1024Mi' } });
      const view = (r: { body: Json }) => ({ qos: r.body.status?.qosClass, resources: r.body.spec.containers[0].resources });
      return { best: view(best), burst: view(burst), guaranteed: view(guaranteed) };
    },
  },
  {
    name: 'pod: the whole object after defaulting and admission',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const created = await api.request('POST', paths.pods(ns), pod('p'));
      const obj = { http: created.status, object: normalizeObject(created.body, { keepGoZeroValues: true }) };
      // The service account volume name ends in 5 random characters, like generateName.
      return JSON.parse(JSON.stringify(obj).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-<suffix>'));
    },
  },
  {
    name: 'pod: spec updates are limited to image, tolerations and deadline',
    needsServiceAccount: true,
    async run(api, { ns }) {
      must(await api.request('POST', paths.pods(ns), pod('p')), 'pod');
      const patch = (body: Json) => api.request('PATCH', paths.pods(ns, 'p'), body, mergePatch);
      const image = await api.request('PATCH', paths.pods(ns, 'p'), { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } }, strategicPatch);
      const forbidden = await patch({ spec: { restartPolicy: 'Never' } });
      const deadline = await patch({ spec: { activeDeadlineSeconds: 30 } });
      const labels = await patch({ metadata: { labels: { x: 'y' } } });
      return {
        image: { http: image.status, image: image.body?.spec?.containers?.[0]?.image, generation: image.body?.metadata?.generation ?? null },
        // The real message goes on with a Go struct diff after the first line.
        forbidden: { ...statusOf(forbidden), message: String(forbidden.body?.message).split('\n')[0] }, deadline: deadline.status, labels: labels.status,
      };
    },
  },
];
