/**
 * Pure rewrites of the webhook-configuration controller (docs/design/webhooks.md §5): the
 * `webhooks` list rebuilt from the saved template, and the conversion section of a Kruise CRD.
 */
import { isIPv6 } from 'node:net';
import { type KObject, isObject } from '../../api/meta.js';
import { templateAnnotation } from '../../api/kruise/webhook-inventory.js';

type Json = Record<string, unknown>;

/** Where the API server reaches this manager: its Service, or a URL when a webhook host is set. */
export interface WebhookEndpoint {
  namespace: string;
  serviceName: string;
  url?: { host: string; port: number };
}

export function urlOf(endpoint: { host: string; port: number }, path: string): string {
  const host = isIPv6(endpoint.host) ? `[${endpoint.host}]` : endpoint.host;
  return `https://${host}:${endpoint.port}${path}`;
}

/** Path a webhook entry is served under, from its service reference or its URL. */
export function pathOf(hook: Json): string | undefined {
  const config = isObject(hook.clientConfig) ? hook.clientConfig : {};
  if (isObject(config.service)) return typeof config.service.path === 'string' ? config.service.path : undefined;
  if (typeof config.url === 'string') {
    try {
      return new URL(config.url).pathname;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function clientConfigFor(path: string, endpoint: WebhookEndpoint, caBundle: string, servicePort = 443): Json {
  if (endpoint.url) return { url: urlOf(endpoint.url, path), caBundle };
  return { service: { namespace: endpoint.namespace, name: endpoint.serviceName, path, port: servicePort }, caBundle };
}

/** The template entries this manager serves, pointed at it with the current CA. */
export function rebuildWebhooks(template: Json[], served: (path: string) => boolean, endpoint: WebhookEndpoint, caBundle: string): Json[] {
  const kept: Json[] = [];
  for (const hook of template) {
    const path = pathOf(hook);
    if (!path || !served(path)) continue;
    const config = isObject(hook.clientConfig) ? hook.clientConfig : {};
    const port = isObject(config.service) && typeof config.service.port === 'number' ? config.service.port : 443;
    kept.push({ ...structuredClone(hook), clientConfig: clientConfigFor(path, endpoint, caBundle, port) });
  }
  return kept;
}

/** The configuration's template: saved from its current `webhooks` when the annotation is still empty. */
export function templateOf(config: KObject): { template: Json[]; saved: boolean } {
  const text = config.metadata.annotations?.[templateAnnotation];
  if (!text) return { template: structuredClone((config.webhooks as Json[] | undefined) ?? []), saved: true };
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error(`annotation ${templateAnnotation} of ${config.metadata.name} is not a JSON list`);
  return { template: parsed as Json[], saved: false };
}

/** `spec.conversion` of a Kruise CRD converted by this manager's `/convert`. */
export function conversionFor(endpoint: WebhookEndpoint, caBundle: string): Json {
  return {
    strategy: 'Webhook',
    webhook: { clientConfig: clientConfigFor('/convert', endpoint, caBundle), conversionReviewVersions: ['v1', 'v1beta1'] },
  };
}
