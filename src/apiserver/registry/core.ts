/** State shared by the registry's operations: the store, the served resources, admission and the clock. */
import { type Store, StoreError } from '../storage/store.js';
import type { ResourceTable } from './resource-table.js';
import type { Admission } from './context.js';
import { errors, StatusError } from '../../machinery/errors.js';
import type { ServedResource } from './served-resource.js';

export interface RegistryCore {
  readonly store: Store;
  readonly table: ResourceTable;
  readonly admission: Admission;
  now(): Date;
}

/** Maps a storage failure to the Status a client expects for this resource and name. */
export function storeErrorToStatus(e: unknown, r: ServedResource, name: string): unknown {
  if (!(e instanceof StoreError)) return e;
  const { plural, group } = r.definition;
  switch (e.code) {
    case 'NotFound': return errors.notFound(plural, name, group);
    case 'AlreadyExists': return errors.alreadyExists(plural, name, group);
    case 'Conflict': return errors.conflict(plural, name, group);
    case 'Expired': return errors.expired(e.message);
    default: return new StatusError(503, 'ServiceUnavailable', e.message);
  }
}

/** RFC 3339 with whole seconds, as metav1.Time serialises. */
export function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
