/**
 * client-go's RetryOnConflict around a read-modify-update: `change` edits a copy of `current` (the
 * cache's object) and the whole object is PUT, to the status subresource when asked; on a Conflict
 * the object is read again and `change` applied anew. `change` returns false when the object needs
 * nothing, so a retry that finds the work done writes nothing. For controllers whose kube roles grant
 * `update` but not `patch` (docs/design/authorization.md §18).
 */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from './client.js';
import { retryOnConflict } from './retry.js';

export async function updateLatest<T extends KObject>(
  client: Client, type: ResourceType, current: T, change: (obj: T) => boolean | void, options: { status?: boolean } = {},
): Promise<T | undefined> {
  let latest = current;
  let first = true;
  return retryOnConflict(async () => {
    if (!first) latest = await client.get<T>(type, current.metadata.namespace, current.metadata.name!);
    first = false;
    const obj = structuredClone(latest);
    if (change(obj) === false) return undefined;
    return options.status ? client.updateStatus<T>(type, obj) : client.update<T>(type, obj);
  });
}
