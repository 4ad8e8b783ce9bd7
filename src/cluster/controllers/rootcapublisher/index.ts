/**
 * kube-controller-manager's root-CA publisher: every active namespace has a ConfigMap
 * `kube-root-ca.crt` whose `ca.crt` is the cluster CA, so pods can verify the API server; edits to
 * its data or description are undone and a deleted one comes back (docs/design/builtin-controllers.md §12).
 */
import { ConfigMaps, Namespaces } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isAlreadyExists, isNotFound, StatusError } from '../../../machinery/errors.js';
import type { Controller } from '../../../runtime/controller.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import type { Result } from '../../../runtime/reconcile.js';
import type { ConfigMap, Namespace } from '../../../api/core/index.js';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION_KEY = 'kubernetes.io/description';
/** The description kube-controller-manager writes on the ConfigMap, word for word. */
export const ROOT_CA_DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints '
  + 'such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export function setupRootCAPublisher(mgr: Manager, caPem: string): Controller {
  const inNamespace = (cm: ConfigMap) => [{ name: cm.metadata.namespace! }];
  return mgr.controllerFor<{ namespaces: Namespace; configMaps: ConfigMap }>('root-ca-cert-publisher', { workers: 2 })
    .for('namespaces', Namespaces)
    .watches('configMaps', ConfigMaps, () => inNamespace,
      { selection: { fieldSelector: `metadata.name=${ROOT_CA_CONFIGMAP}` } })
    .complete(({ informers, client }) => ({
      reconcile: (_ctx, req) => publish(informers.namespaces, informers.configMaps, client, caPem, req.name),
    }));
}

async function publish(namespaces: Informer<Namespace>, configMaps: Informer<ConfigMap>, client: Client,
  caPem: string, namespace: string): Promise<Result> {
  const ns = namespaces.get(undefined, namespace);
  if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return {};
  const current = configMaps.get(namespace, ROOT_CA_CONFIGMAP);
  try {
    if (!current) {
      await client.create<ConfigMap>(ConfigMaps, {
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_KEY]: ROOT_CA_DESCRIPTION } },
        data: { 'ca.crt': caPem },
      });
    } else if (!upToDate(current, caPem)) {
      // kube replaces the data wholesale and keeps other annotations
      await client.update<ConfigMap>(ConfigMaps, {
        ...current,
        metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, [DESCRIPTION_KEY]: ROOT_CA_DESCRIPTION } },
        data: { 'ca.crt': caPem }, binaryData: undefined,
      });
    }
  } catch (e) {
    if (!isAlreadyExists(e) && !isNotFound(e) && !(e instanceof StatusError && e.code === 403)) throw e;
  }
  return {};
}

function upToDate(cm: ConfigMap, caPem: string): boolean {
  const keys = Object.keys(cm.data ?? {});
  return keys.length === 1 && cm.data?.['ca.crt'] === caPem && !cm.binaryData
    && cm.metadata.annotations?.[DESCRIPTION_KEY] === ROOT_CA_DESCRIPTION;
}
