/** managedFields bookkeeping for every write, through the server-side apply engine. */
import type { KObject, ManagedFieldsEntry } from '../../api/meta.js';
import { recordUpdate, defaultHints, type ListType, type TypeHints } from '../../machinery/apply/index.js';
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import type { RequestContext } from './context.js';
import type { ServedResource } from './served-resource.js';
import { timestamp } from './core.js';

const hintsCache = new WeakMap<ServedResource, TypeHints>();

/**
 * List and map types for managedFields and server-side apply: custom resources from their schema's
 * x-kubernetes-list-type / list-map-keys / map-type, built-in kinds from the k8s.io/api tags.
 */
export function typeHintsFor(r: ServedResource): TypeHints {
  let hints = hintsCache.get(r);
  if (!hints) {
    hints = r.schemaIsAuthoritative && r.schema ? schemaHints(r.schema) : defaultHints;
    hintsCache.set(r, hints);
  }
  return hints;
}

/** The schema of a field path whose list items are elided (arrays are stepped into implicitly). */
function schemaAtPath(schema: JSONSchemaProps, path: string[]): JSONSchemaProps | undefined {
  let cur: JSONSchemaProps | undefined = schema;
  for (const name of path) {
    if (cur?.type === 'array') cur = cur.items as JSONSchemaProps | undefined;
    const props: Record<string, JSONSchemaProps> | undefined = cur?.properties;
    const additional: unknown = cur?.additionalProperties;
    cur = props?.[name] ?? (typeof additional === 'object' ? (additional as JSONSchemaProps) : undefined);
    if (!cur) return undefined;
  }
  return cur;
}

function schemaHints(schema: JSONSchemaProps): TypeHints {
  return {
    listType(path): ListType | undefined {
      const s = schemaAtPath(schema, path);
      const type = s?.['x-kubernetes-list-type'];
      if (type === 'map') return { type: 'map', keys: s?.['x-kubernetes-list-map-keys'] ?? [] };
      return type === 'set' ? { type: 'set' } : undefined;
    },
    mapAtomic: (path) => schemaAtPath(schema, path)?.['x-kubernetes-map-type'] === 'atomic',
  };
}

/** `fieldManager` or, as kube-apiserver does, the User-Agent up to its first '/'. */
export function managerName(ctx: RequestContext): string {
  if (ctx.fieldManager) return ctx.fieldManager;
  const ua = ctx.userAgent ?? 'unknown';
  return ua.split('/')[0] || 'unknown';
}

export function trackUpdate(r: ServedResource, old: KObject | undefined, obj: KObject, ctx: RequestContext, now: Date, subresource?: string): void {
  obj.metadata.managedFields = managedFieldsAfter(r, old, obj, ctx, now, subresource);
}

/** The managedFields `obj` gets when written over `old` (reads both, modifies neither). */
export function managedFieldsAfter(r: ServedResource, old: KObject | undefined, obj: KObject, ctx: RequestContext, now: Date, subresource?: string): ManagedFieldsEntry[] {
  return recordUpdate(old, obj, {
    manager: managerName(ctx),
    apiVersion: obj.apiVersion ?? '',
    hints: typeHintsFor(r),
    now: timestamp(now),
    subresource,
  });
}
