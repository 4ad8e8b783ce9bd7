/**
 * Resource parity with kube-apiserver v1.32 (docs/design/apiserver.md §11): the resource list
 * `kubectl api-resources` prints (read from the same discovery documents), and for each resource
 * added for parity a valid object created, read, listed and deleted and an invalid one refused.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kubectlBinary, kubectlFor } from '../../testing/kubectl.js';
import type { DiffApi, Json } from './api.js';
import { must, type DiffCase } from './case-kit.js';
import { statusOf } from './normalize.js';
import { isGoZero } from '../../machinery/semantic-equal.js';

/**
 * Left out of the comparison: the `proxy` subresources, which are not served, and
 * `metrics.k8s.io`, which the embedded server answers itself where a real cluster adds it as
 * metrics-server's aggregated API (docs/known-differences.md).
 */
const notCompared = /\/proxy$/;
const notComparedGroups = new Set(['metrics.k8s.io']);

/** One row per resource and subresource of every built-in group version, like `kubectl api-resources -o wide`. */
async function resourceRows(api: DiffApi): Promise<string[]> {
  const groups = (await api.request('GET', '/apis')).body.groups as Json[];
  const paths = ['/api/v1', ...groups.filter((g) => !notComparedGroups.has(g.name) && (g.name.endsWith('k8s.io') || !g.name.includes('.'))).flatMap((g) => g.versions.map((v: Json) => `/apis/${v.groupVersion}`))];
  const rows: string[] = [];
  for (const path of paths) {
    const list = (await api.request('GET', path)).body;
    for (const r of list.resources as Json[]) {
      if (notCompared.test(r.name)) continue;
      rows.push([list.groupVersion, r.name, r.kind, r.namespaced, (r.shortNames ?? []).join(','), [...r.verbs].sort().join(','), (r.categories ?? []).join(',')].join(' '));
    }
  }
  return rows.sort();
}

interface ParityProbe {
  path: (ns: string) => string;
  valid: Json;
  invalid: Json;
}

const csrPem = [
  '-----BEGIN CERTIFICATE REQUEST-----',
  'MIHYMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq',
  'hkjOPQIBBggqhkjOPQMBBwNCAATJXrx/xppr0T8A5p3Ir3slcKYMaHTkfh6sLStk',
  'ddE+JNbOhxqCmdiuiWo4AUHH0p85H52kwt+viWL7OeTjFdBsoAAwCgYIKoZIzj0E',
  'AwIDRwAwRAIgCVZaoRjAcjEAXxJAdhQqg3kF4nLAMNn3H6CgQsWTUiUCID9ofNFP',
  'O+8o/7aeU73bmZqombHbAOGErSUvrNZX3z0y',
  '-----END CERTIFICATE REQUEST-----', '',
].join('\n');

const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };
const backend = { service: { name: 's', port: { number: 80 } } };

/** Objects are named after the case namespace where cluster-scoped, so concurrent runs never collide. */
const probes: Record<string, (ns: string) => ParityProbe> = {
  ingresses: () => ({
    path: (ns) => `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`,
    valid: { metadata: { name: 'ok' }, spec: { rules: [{ host: 'a.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] } },
    invalid: { metadata: { name: 'bad' }, spec: { rules: [{ http: { paths: [{ path: '/', backend }] } }] } },
  }),
  ingressclasses: (ns) => ({
    path: () => '/apis/networking.k8s.io/v1/ingressclasses',
    valid: { metadata: { name: `${ns}-ok` }, spec: { controller: 'example.com/ingress' } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: {} },
  }),
  networkpolicies: () => ({
    path: (ns) => `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`,
    valid: { metadata: { name: 'ok' }, spec: { podSelector: { matchLabels: { app: 'a' } }, ingress: [{ ports: [{ port: 80 }] }], egress: [{}] } },
    invalid: { metadata: { name: 'bad' }, spec: { podSelector: {}, policyTypes: ['Sideways'] } },
  }),
  runtimeclasses: (ns) => ({
    path: () => '/apis/node.k8s.io/v1/runtimeclasses',
    valid: { metadata: { name: `${ns}-ok` }, handler: 'runc' },
    invalid: { metadata: { name: `${ns}-bad` }, handler: 'Bad_Handler' },
  }),
  certificatesigningrequests: (ns) => ({
    path: () => '/apis/certificates.k8s.io/v1/certificatesigningrequests',
    valid: { metadata: { name: `${ns}-ok` }, spec: { request: Buffer.from(csrPem).toString('base64'), signerName: 'example.com/x', usages: ['client auth'], expirationSeconds: 3600 } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: { request: Buffer.from(csrPem).toString('base64'), usages: ['flying'] } },
  }),
  flowschemas: (ns) => ({
    path: () => '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas',
    valid: { metadata: { name: `${ns}-ok` }, spec: { priorityLevelConfiguration: { name: 'global-default' }, distinguisherMethod: { type: 'ByUser' } } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 20000 } },
  }),
  prioritylevelconfigurations: (ns) => ({
    path: () => '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations',
    valid: { metadata: { name: `${ns}-ok` }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: { type: 'Limited' } },
  }),
  apiservices: (ns) => ({
    path: () => '/apis/apiregistration.k8s.io/v1/apiservices',
    valid: { metadata: { name: `v1.${ns}.example.com` }, spec: { group: `${ns}.example.com`, version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: ns, name: 'x' }, insecureSkipTLSVerify: true } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: { group: 'x.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } },
  }),
  validatingadmissionpolicies: (ns) => ({
    path: () => '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
    valid: { metadata: { name: `${ns}-ok` }, spec: { validations: [{ expression: 'object.spec.replicas <= 5' }], matchConstraints: { resourceRules: [rule] } } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: {} },
  }),
  validatingadmissionpolicybindings: (ns) => ({
    path: () => '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
    valid: { metadata: { name: `${ns}-ok` }, spec: { policyName: 'p', validationActions: ['Deny'], matchResources: { resourceRules: [rule] } } },
    invalid: { metadata: { name: `${ns}-bad` }, spec: {} },
  }),
};

/** The stored object without what differs per server (uid, times, RV, user identity of a CSR). */
function stable(obj: Json): Json {
  if (!obj || obj.kind === 'Status') return obj;
  const { metadata, spec, status, ...rest } = obj;
  // Go serialises zero-valued status structs ({}, {loadBalancer: {}}); an APIService's status is
  // written later by the availability controller, which does not run here.
  if (!isGoZero(status) && obj.kind !== 'APIService') rest.status = status;
  const { request: _r, username: _u, uid: _id, groups: _g, extra: _e, ...specRest } = spec ?? {};
  return { ...rest, name: metadata?.name, generation: metadata?.generation, ...(spec ? { spec: specRest } : {}) };
}

export const parityCases: DiffCase[] = [
  {
    name: 'parity: the resources and subresources kubectl api-resources lists',
    async run(api) {
      return { rows: await resourceRows(api) };
    },
  },
  ...Object.entries(probes).map(([plural, probe]): DiffCase => ({
    name: `parity: ${plural} create, get, list, delete and an invalid object`,
    async run(api, { ns }) {
      const p = probe(ns);
      const base = p.path(ns);
      const created = await api.request('POST', base, p.valid);
      const name = created.body?.metadata?.name;
      const got = name ? await api.request('GET', `${base}/${name}`) : created;
      const listed = await api.request('GET', base);
      const invalid = await api.request('POST', base, p.invalid);
      const deleted = name ? must(await api.request('DELETE', `${base}/${name}`), 'delete') : created;
      const gone = name ? await api.request('GET', `${base}/${name}`) : created;
      return {
        created: created.status, object: stable(created.body), got: stable(got.body),
        listed: { http: listed.status, kind: listed.body?.kind, has: (listed.body?.items ?? []).some((i: Json) => i.metadata?.name === name) },
        invalid: statusOf(invalid), deleted: deleted.status, gone: gone.status,
        // CSRs record who asked: a username and the caller's groups, whatever the body said.
        ...(plural === 'certificatesigningrequests' ? { requester: { named: !!got.body?.spec?.username, masters: (got.body?.spec?.groups ?? []).includes('system:masters') } } : {}),
      };
    },
  })),
];

/** A kubeconfig for the server the api talks to, in a directory of its own (with kubectl's cache). */
async function kubectlOn(api: DiffApi, dir: string) {
  const { url, caPem, token } = api.access;
  const kubeconfig = path.join(dir, 'kubeconfig');
  await writeFile(kubeconfig, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'c', cluster: { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: 'u', user: { token } }], contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  }));
  return kubectlFor(kubeconfig, path.join(dir, 'cache'));
}

const explained = ['apiservices', 'bindings', 'componentstatuses', 'certificatesigningrequests', 'flowschemas', 'prioritylevelconfigurations',
  'ingresses', 'ingressclasses', 'networkpolicies', 'runtimeclasses', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings',
  'tokenreviews', 'subjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectrulesreviews'];

parityCases.push({
  name: 'parity: kubectl explain --recursive field trees of the added resources',
  async run(api, { side }) {
    try {
      kubectlBinary();
    } catch (e) {
      return { kubectl: (e as Error).message };
    }
    const dir = await mkdtemp(path.join(tmpdir(), `explain-${side}-`));
    try {
      const kubectl = await kubectlOn(api, dir);
      const trees: Record<string, string[]> = {};
      for (const plural of explained) {
        const out = await kubectl(['explain', plural, '--recursive']);
        // Field names and nesting only: descriptions, `-required-` markers and enums come from
        // client-node's models (a newer release) here, see docs/known-differences.md.
        trees[plural] = out.code !== 0 ? [out.stderr.trim()] : out.stdout.split('\n').filter((l) => /^\s+\S+\t</.test(l)).map((l) => l.split('\t')[0]!);
      }
      return trees;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
});

parityCases.push({
  name: 'parity: POST bindings binds the named pod like pods/binding',
  needsServiceAccount: true,
  async run(api, { ns }) {
    must(await api.request('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }), 'pod');
    const bind = (name: string, node: string) => api.request('POST', `/api/v1/namespaces/${ns}/bindings`, { metadata: { name }, target: { kind: 'Node', name: node } });
    const bound = await bind('p', 'node-a');
    const again = await bind('p', 'node-b');
    const missing = await bind('nopod', 'node-a');
    const pod = await api.request('GET', `/api/v1/namespaces/${ns}/pods/p`);
    const listed = await api.request('GET', `/api/v1/namespaces/${ns}/bindings`);
    return { bound: bound.status, again: statusOf(again), missing: statusOf(missing), nodeName: pod.body?.spec?.nodeName, list: listed.status };
  },
});

parityCases.push({
  name: 'parity: componentstatuses are read-only and etcd-0 is healthy',
  async run(api) {
    const etcd = await api.request('GET', '/api/v1/componentstatuses/etcd-0');
    const list = await api.request('GET', '/api/v1/componentstatuses');
    const create = await api.request('POST', '/api/v1/componentstatuses', { metadata: { name: 'x' } });
    const del = await api.request('DELETE', '/api/v1/componentstatuses/etcd-0');
    return {
      etcd: { http: etcd.status, conditions: etcd.body?.conditions }, names: (list.body?.items ?? []).map((i: Json) => i.metadata.name).sort(),
      create: statusOf(create), delete: statusOf(del),
    };
  },
});
