/** managedFields bookkeeping for every write, through the server-side apply engine. */
import type { KObject } from '../../api/meta.js';
import { recordUpdate, defaultHints, type TypeHints } from '../../machinery/apply/index.js';
import type { RequestContext } from './context.js';
import type { ServedResource } from './served-resource.js';
import { timestamp } from './core.js';

const hintsCache = new WeakMap<ServedResource, TypeHints>();
let hintsFactory: ((r: ServedResource) => TypeHints) | undefined;

/** Lets the server install the adapter from patch metadata / CRD schemas to list types. */
export function setTypeHintsFactory(factory: (r: ServedResource) => TypeHints): void {
  hintsFactory = factory;
}

export function typeHintsFor(r: ServedResource): TypeHints {
  let hints = hintsCache.get(r);
  if (!hints) {
    hints = hintsFactory ? hintsFactory(r) : defaultHints;
    hintsCache.set(r, hints);
  }
  return hints;
}

/** `fieldManager` or, as kube-apiserver does, the User-Agent up to its first '/'. */
export function managerName(ctx: RequestContext): string {
  if (ctx.fieldManager) return ctx.fieldManager;
  const ua = ctx.userAgent ?? 'unknown';
  return ua.split('/')[0] || 'unknown';
}

export function trackUpdate(r: ServedResource, old: KObject | undefined, obj: KObject, ctx: RequestContext, now: Date, subresource?: string): void {
  obj.metadata.managedFields = recordUpdate(old, obj, {
    manager: managerName(ctx),
    apiVersion: obj.apiVersion ?? '',
    hints: typeHintsFor(r),
    now: timestamp(now),
    subresource,
  });
}
