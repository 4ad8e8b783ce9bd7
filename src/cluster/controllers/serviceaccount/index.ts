/**
 * kube-controller-manager's ServiceAccount controller: every active namespace has a ServiceAccount
 * named `default`, created when the namespace appears and again when someone deletes it
 * (docs/design/builtin-controllers.md §11). Pods without `serviceAccountName` use it.
 */
import { Namespaces, ServiceAccounts } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isAlreadyExists, isNotFound, StatusError } from '../../../machinery/errors.js';
import type { Controller } from '../../../runtime/controller.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import type { Request } from '../../../runtime/handlers.js';
import type { Result } from '../../../runtime/reconcile.js';
import type { Namespace, ServiceAccount } from '../../../api/core/index.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export function setupServiceAccountController(mgr: Manager): Controller {
  return mgr.controllerFor<{ namespaces: Namespace; serviceAccounts: ServiceAccount }>('serviceaccount', { workers: 2 })
    .for('namespaces', Namespaces)
    .watches('serviceAccounts', ServiceAccounts, () => ({
      onDelete: (sa: ServiceAccount) => [{ name: sa.metadata.namespace! }],
    }), { selection: { fieldSelector: `metadata.name=${DEFAULT_SERVICE_ACCOUNT}` } })
    .complete(({ informers, client }) => ({
      reconcile: (_ctx, req) => ensureDefaultServiceAccount(informers.namespaces, informers.serviceAccounts, client, req),
    }));
}

async function ensureDefaultServiceAccount(namespaces: Informer<Namespace>, accounts: Informer<ServiceAccount>,
  client: Client, req: Request): Promise<Result> {
  const ns = namespaces.get(undefined, req.name);
  // a terminating namespace refuses new content; kube skips it too
  if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return {};
  if (accounts.get(req.name, DEFAULT_SERVICE_ACCOUNT)) return {};
  try {
    await client.create<ServiceAccount>(ServiceAccounts, {
      apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: req.name },
    });
  } catch (e) {
    // already there (the cache lags) or the namespace went away or began terminating meanwhile
    if (!isAlreadyExists(e) && !isNotFound(e) && !(e instanceof StatusError && e.code === 403)) throw e;
  }
  return {};
}
