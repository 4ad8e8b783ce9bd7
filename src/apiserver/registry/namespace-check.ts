/** Writes into a namespace need it to exist and not be terminating (NamespaceLifecycle admission). */
import { errors, StatusError } from '../../machinery/errors.js';
import type { RegistryCore } from './core.js';
import type { ServedResource } from './served-resource.js';
import { namespaceKey } from './keys.js';

/**
 * `name` is what the request names: the object's name, else its generateName (kube's admission
 * sees the prefix before a name is generated). The 403 names the object, as kube's Forbidden does.
 */
export async function checkNamespaceWritable(core: RegistryCore, namespace: string, r: ServedResource, name: string | undefined): Promise<void> {
  const ns = core.store.get(namespaceKey(namespace));
  if (!ns) throw errors.notFound('namespaces', namespace);
  const phase = (ns.object.status as { phase?: string } | undefined)?.phase;
  if (!ns.object.metadata.deletionTimestamp && phase !== 'Terminating') return;
  const { plural, group } = r.definition;
  const resource = group ? `${plural}.${group}` : plural;
  const subject = name ? `${resource} "${name}"` : resource;
  throw new StatusError(403, 'Forbidden', `${subject} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
    name: name || undefined, group: group || undefined, kind: plural,
    causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
  });
}
