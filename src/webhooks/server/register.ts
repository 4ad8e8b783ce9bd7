/**
 * Which admission handlers this manager serves (docs/design/manager.md §2): every inventory entry
 * whose gate is on, whose required CRD exists and whose kind module has the hook it needs, under its
 * path and its legacy alias.
 */
import { CustomResourceDefinitions } from '../../api/resource-type.js';
import { webhookPaths, type WebhookInventoryEntry } from '../../api/kruise/webhook-inventory.js';
import { isNotFound } from '../../machinery/errors.js';
import { admissionHandler, type AdmissionHandler, type HandlerContext } from '../handlers.js';
import type { KindWebhooks } from '../kind-webhook.js';

export async function registerHandlers(
  inventory: WebhookInventoryEntry[],
  kinds: Record<string, KindWebhooks>,
  ctx: HandlerContext,
): Promise<Map<string, AdmissionHandler>> {
  const handlers = new Map<string, AdmissionHandler>();
  const crdExists = memo((name: string) => ctx.client.get(CustomResourceDefinitions, undefined, name).then(() => true, (e: unknown) => {
    if (isNotFound(e)) return false;
    throw e;
  }));
  for (const entry of inventory) {
    if (entry.gate && !ctx.gate(entry.gate)) continue;
    const hooks = Object.hasOwn(kinds, entry.handler) ? kinds[entry.handler] : undefined;
    const handler = hooks && admissionHandler(entry.type, hooks, ctx);
    if (!handler) continue;
    if (entry.requiresCrd && !(await crdExists(entry.requiresCrd))) continue;
    for (const path of webhookPaths(entry)) if (!handlers.has(path)) handlers.set(path, handler);
  }
  return handlers;
}

function memo<T>(fn: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (key) => {
    let p = cache.get(key);
    if (!p) cache.set(key, (p = fn(key)));
    return p;
  };
}
