/**
 * Where a webhook's clientConfig points: its URL, or a Service resolved through the Endpoints of
 * the same name (kube-apiserver's endpoint routing), with the TLS name `<svc>.<ns>.svc` and the
 * URL kube prints in errors (`https://<svc>.<ns>.svc:<port><path>?timeout=<n>s`).
 */
import { isIP } from 'node:net';
import type { KObject } from '../../api/meta.js';
import type { RegistryReader } from '../registry/reader.js';
import type { ServiceReference, WebhookClientConfig } from './webhook-config.js';

export interface CallTarget {
  /** The URL as kube-apiserver prints it in errors, with `?timeout=<n>s`. */
  display: string;
  host: string;
  port: number;
  /** Path and query sent on the request line. */
  path: string;
  /** TLS name the certificate is verified against; undefined for IP URLs (Node checks the IP SAN). */
  servername?: string;
  /** Base64 PEM CA bundle ('' = system roots). */
  caBundle: string;
}

/** A failure to call a webhook; the message is the Go-style cause (`Post "<url>": <why>`). */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
}

interface ServiceShape { spec?: { type?: string; ports?: { name?: string; port?: number }[] } }
interface EndpointsShape { subsets?: { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }[] }

const withTimeout = (pathAndQuery: string, timeoutSeconds: number) => `${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}timeout=${timeoutSeconds}s`;

export class ServiceResolver {
  constructor(private readonly reader: RegistryReader) {}

  /** Throws WebhookCallError when a service cannot be resolved (kube fails the dial the same way). */
  resolve(config: WebhookClientConfig, timeoutSeconds: number): CallTarget {
    const caBundle = config.caBundle ?? '';
    if (config.url) {
      let u: URL;
      try {
        u = new URL(config.url);
      } catch (e) {
        throw new WebhookCallError(`parse "${config.url}": ${(e as Error).message}`);
      }
      const host = u.hostname.replace(/^\[|\]$/g, '');
      const path = withTimeout(`${u.pathname}${u.search}`, timeoutSeconds);
      return { display: `${u.origin}${path}`, host, port: Number(u.port || 443), path, servername: isIP(host) ? undefined : host, caBundle };
    }
    const ref = config.service;
    if (!ref) throw new WebhookCallError('webhook has no url or service in its clientConfig');
    const port = ref.port ?? 443;
    const dnsName = `${ref.name}.${ref.namespace}.svc`;
    const path = withTimeout(ref.path || '/', timeoutSeconds);
    const display = `https://${dnsName}:${port}${path}`;
    try {
      return { display, ...this.endpoint(ref, port), path, servername: dnsName, caBundle };
    } catch (e) {
      throw new WebhookCallError(`Post "${display}": ${(e as Error).message}`);
    }
  }

  private get(plural: string, namespace: string, name: string): KObject | undefined {
    const r = this.reader.table.lookup('', 'v1', plural);
    return r && this.reader.getStored(r, namespace, name);
  }

  private endpoint(ref: ServiceReference, port: number): { host: string; port: number } {
    const svc = this.get('services', ref.namespace, ref.name) as (KObject & ServiceShape) | undefined;
    if (!svc) throw new Error(`service "${ref.name}" not found`);
    const type = svc.spec?.type ?? 'ClusterIP';
    if (!['ClusterIP', 'LoadBalancer', 'NodePort'].includes(type)) throw new Error(`unsupported service type "${type}"`);
    const svcPort = (svc.spec?.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service "${ref.name}"`);
    const eps = this.get('endpoints', ref.namespace, ref.name) as (KObject & EndpointsShape) | undefined;
    if (!eps) throw new Error(`endpoints "${ref.name}" not found`);
    for (const subset of eps.subsets ?? []) {
      const addresses = subset.addresses ?? [];
      const match = (subset.ports ?? []).find((p) => (p.name ?? '') === (svcPort.name ?? ''));
      if (match && addresses.length > 0) return { host: addresses[Math.floor(Math.random() * addresses.length)].ip, port: match.port };
    }
    throw new Error(`no endpoints available for service "${ref.name}"`);
  }
}
