/**
 * What a differential case is, the context it runs in, and the paths, headers and builders the
 * case files share.
 */
import type { DiffApi, Json } from './api.js';
import type { Observation } from './normalize.js';

export type { Observation } from './normalize.js';

export interface CaseContext {
  /** A namespace made for this case alone; the same name on both servers. */
  ns: string;
  side: 'embedded' | 'real';
  /** Calls fn until done(value) holds or timeoutMs passes, and returns the last value. */
  poll<T>(fn: () => Promise<T>, done: (value: T) => boolean, timeoutMs?: number): Promise<T>;
}

export interface DiffCase {
  name: string;
  /** Set when the servers are known to disagree: what differs and why (docs/known-differences.md). */
  knownDifference?: string;
  /** The case creates pods: on the real server wait for the namespace's `default` ServiceAccount. */
  needsServiceAccount?: boolean;
  run(api: DiffApi, ctx: CaseContext): Promise<Observation>;
}

export const mergePatch = { 'content-type': 'application/merge-patch+json' };
export const jsonPatch = { 'content-type': 'application/json-patch+json' };
export const strategicPatch = { 'content-type': 'application/strategic-merge-patch+json' };
export const applyPatch = { 'content-type': 'application/apply-patch+yaml' };

export const paths = {
  configMaps: (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`,
  pods: (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`,
  deployments: (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`,
  widgets: (ns: string, name = '') => `/apis/diff.example.com/v1/namespaces/${ns}/widgets${name ? `/${name}` : ''}`,
  namespace: (name = '') => `/api/v1/namespaces${name ? `/${name}` : ''}`,
};

export function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = { k: 'v' }): Json {
  // No empty maps: the real server drops them on write (a case of its own checks that).
  const metadata = Object.keys(labels).length ? { name, labels } : { name };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, ...(Object.keys(data).length ? { data } : {}) };
}

export function deployment(name: string, extra: { replicas?: number; containers?: Json[] } = {}): Json {
  const containers = extra.containers ?? [{ name: 'app', image: 'nginx:1.27' }];
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
    spec: {
      ...(extra.replicas === undefined ? {} : { replicas: extra.replicas }),
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers } },
    },
  };
}

export function pod(name: string, containers: Json[] = [{ name: 'app', image: 'nginx:1.27' }], spec: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers, ...spec } };
}

export function widget(name: string, spec: Json = { color: 'red' }): Json {
  return { apiVersion: 'diff.example.com/v1', kind: 'Widget', metadata: { name }, spec };
}

/** An owner reference to a stored object. */
export function ownerRef(owner: Json, extra: { blockOwnerDeletion?: boolean; controller?: boolean } = {}): Json {
  return { apiVersion: owner.apiVersion ?? 'v1', kind: owner.kind ?? 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid, ...extra };
}

/** Fails the case with the server's answer when a setup step did not succeed. */
export function must<T extends { status: number; text: string }>(res: T, what: string): T {
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${res.text.slice(0, 400)}`);
  return res;
}

/** `?a=b&c=d` with values URL-encoded. */
export function query(params: Record<string, string | number | boolean>): string {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return `?${q.toString()}`;
}
