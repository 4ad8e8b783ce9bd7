/**
 * The requests `bench:admission` compares: a pod create with `mpod.kb.io` and without it (namespace
 * excluded by the pod webhooks' namespaceSelector), a CloneSet create (mcloneset + vcloneset, on the
 * storage version so no conversion) against a ConfigMap and against a plane with no webhooks.
 */
import { type ResourceType, ConfigMaps, Namespaces, Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import type { Op } from './admission-measure.js';

import { CloneSets } from '../api/kruise/resource-types.js';
export { CloneSets };

/** Pod webhooks apply here. */
export const hookedNamespace = 'bench-on';
/** Labelled `control-plane: openkruise`, which the pod webhooks' namespaceSelector leaves out. */
export const excludedNamespace = 'bench-off';

export async function createNamespaces(client: Client): Promise<void> {
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: hookedNamespace } });
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: excludedNamespace, labels: { 'control-plane': 'openkruise' } } });
}

/** The pod of bench:apiserver: labels, a 400-byte annotation, requests and limits. */
export const pod = (name: string, namespace: string) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace, labels: { app: 'bench', tier: 'web' }, annotations: { note: 'x'.repeat(400) } },
  spec: {
    containers: [{
      name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }],
      resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
    }],
  },
});

/** Zero replicas: no controller runs here, and none would have pods to make. */
export const cloneSet = (name: string, namespace: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet',
  metadata: { name, namespace },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
    },
  },
});

export const configMap = (name: string, namespace: string) => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { key: 'value', other: 'x'.repeat(200) },
});

type Build = (name: string, namespace: string) => { metadata: { name: string } };

/** Creates of `build` objects named `<prefix>-<i>`; throws on any failure so a broken chain never counts. */
export function creates(client: Client, type: ResourceType, namespace: string, prefix: string, build: Build): Op {
  let i = 0;
  return async () => {
    await client.create(type, build(`${prefix}-${i++}`, namespace) as Parameters<Client['create']>[1]);
  };
}

export const podCreates = (client: Client, namespace: string, prefix: string) => creates(client, Pods, namespace, prefix, pod);
export const cloneSetCreates = (client: Client, prefix: string) => creates(client, CloneSets, hookedNamespace, prefix, cloneSet);
export const configMapCreates = (client: Client, prefix: string) => creates(client, ConfigMaps, hookedNamespace, prefix, configMap);
