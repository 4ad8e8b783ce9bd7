/** meta.k8s.io/v1 Table responses for `kubectl get` (server-side printing). */
import type { KObject, ListMeta } from '../../api/meta.js';
import { buildTable, defaultPrinter } from '../printers/index.js';
import type { Registry } from '../registry/registry.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { AcceptInfo } from './query.js';

export function tableOf(r: ServedResource, objects: KObject[], accept: AcceptInfo, registry: Registry, meta: ListMeta | undefined, withColumns = true): Record<string, unknown> {
  return buildTable(r.printer ?? defaultPrinter, objects, {
    includeObject: accept.includeObject,
    now: registry.now(),
    resourceVersion: meta?.resourceVersion,
    continue: meta?.continue,
    withColumns,
  });
}
