/**
 * ValidatingAdmissionPolicy evaluated at admission (docs/design/apiserver.md §11): a CEL rule and a
 * binding limited to the case's namespace refuse Deployments with kube's codes and messages.
 */
import type { Json } from './api.js';
import { deployment, paths, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';

const vap = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const vapb = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

export const admissionPolicyCases: DiffCase[] = [
  {
    name: 'admission policy: CEL validations deny with the policy, binding and reason',
    async run(api, { ns, poll }) {
      const policy = {
        metadata: { name: ns },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
          validations: [
            { expression: 'object.spec.replicas <= 5' },
            { expression: "!object.metadata.name.startsWith('x')", message: 'names may not start with x', reason: 'Forbidden' },
            { expression: "request.operation != 'UPDATE' || object.spec.replicas >= oldObject.spec.replicas", message: 'no scale-down' },
          ],
        },
      };
      const binding = {
        metadata: { name: `${ns}-binding` },
        spec: { policyName: ns, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } } },
      };
      const created = [await api.request('POST', vap, policy), await api.request('POST', vapb, binding)].map((r) => r.status);
      try {
        // The real server applies a new policy after its informers catch up.
        const dry = `${paths.deployments(ns)}?dryRun=All`;
        await poll(() => api.request('POST', dry, deployment('probe', { replicas: 9 })), (r) => r.status === 422, 10_000);
        const tooMany = await api.request('POST', paths.deployments(ns), deployment('web', { replicas: 9 }));
        const xName = await api.request('POST', paths.deployments(ns), deployment('xweb', { replicas: 1 }));
        const ok = await api.request('POST', paths.deployments(ns), deployment('web', { replicas: 3 }));
        const down: Json = structuredClone(ok.body);
        if (down.spec) down.spec.replicas = 2;
        const scaledDown = await api.request('PUT', paths.deployments(ns, 'web'), down);
        const other = await api.request('POST', paths.deployments('default') + '?dryRun=All', deployment(`${ns}-web`, { replicas: 9 }));
        return { created, tooMany: statusOf(tooMany), xName: statusOf(xName), ok: ok.status, scaledDown: statusOf(scaledDown), otherNamespace: other.status };
      } finally {
        await api.request('DELETE', `${vapb}/${ns}-binding`);
        await api.request('DELETE', `${vap}/${ns}`);
      }
    },
  },
];
