/** Writes into a namespace need it to exist and not be terminating (NamespaceLifecycle admission). */
import { errors, StatusError } from '../../machinery/errors.js';
import type { RegistryCore } from './core.js';

export async function checkNamespaceWritable(core: RegistryCore, namespace: string): Promise<void> {
  const ns = core.store.get(`/core/namespaces/${namespace}`);
  if (!ns) throw errors.notFound('namespaces', namespace);
  const phase = (ns.object.status as { phase?: string } | undefined)?.phase;
  if (ns.object.metadata.deletionTimestamp || phase === 'Terminating') {
    throw new StatusError(403, 'Forbidden', `unable to create new content in namespace ${namespace} because it is being terminated`, {
      name: namespace, kind: 'namespaces',
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is terminating`, field: 'metadata.namespace' }],
    });
  }
}
