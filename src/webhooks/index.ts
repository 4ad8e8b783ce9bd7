/**
 * The Kruise manager's webhooks in one call: registers the admission handlers, starts the HTTPS
 * server (admission paths, `/convert`, `/healthz`) and the webhook-configuration controller, and
 * reports ready once the first sync is done and the server answers `/healthz` over TLS with the
 * synced CA. Runs on every replica.
 */
import https from 'node:https';
import type { Registry } from 'prom-client';
import { mutatingConfigurationName, validatingConfigurationName, webhookInventory } from '../api/kruise/webhook-inventory.js';
import type { Client } from '../client/client.js';
import type { KeyAlgorithm } from '../machinery/certs.js';
import { logger } from '../machinery/log.js';
import { createFsCertWriter, createSecretCertWriter, type CertWriter } from './certs/index.js';
import { startConfigurationController } from './configuration/controller.js';
import type { KindWebhooks } from './kind-webhook.js';
import { kruiseKindWebhooks } from './kinds.js';
import { PersistentPodStates, PodProbeMarkers, PodUnavailableBudgets, SidecarSets, WorkloadSpreads } from '../api/kruise/resource-types.js';
import { cachedReads } from './server/cached-reads.js';
import type { SharedInformerFactory } from '../runtime/informer-factory.js';
import { registerHandlers } from './server/register.js';
import { startWebhookServer } from './server/server.js';

export interface KruiseWebhooksOptions {
  client: Client;
  gates: (name: string) => boolean;
  /** The Kruise namespace (`POD_NAMESPACE`). */
  namespace: string;
  /** Address the HTTPS server listens on (default 0.0.0.0). */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  certDir: string;
  certWriter: 'secret' | 'fs';
  secretName: string;
  serviceName: string;
  /** `WEBHOOK_HOST`: configurations then use `https://<webhookHost>:<port><path>` instead of the Service. */
  webhookHost?: string;
  /** Handler modules by inventory key (default: kinds.ts). */
  kinds?: Record<string, KindWebhooks>;
  /** Registry for the webhook metrics (the manager's, so `/metrics` shows them). */
  registry?: Registry;
  /** Key type of minted certificates (default RSA 2048, as upstream). */
  keyAlgorithm?: KeyAlgorithm;
  renewBeforeMs?: number;
  resyncMs?: number;
  /** The manager's informers, for the cached reads (started with the manager; until then reads go to the API server). */
  informers?: SharedInformerFactory;
}

export interface KruiseWebhooks {
  port: number;
  /** CA of the serving certificate ('' until the first sync). */
  readonly caPem: string;
  /** Paths with a registered admission handler (aliases included). */
  paths: string[];
  ready: Promise<void>;
  metrics: Registry;
  stop(): Promise<void>;
}

export async function startKruiseWebhooks(options: KruiseWebhooksOptions): Promise<KruiseWebhooks> {
  const log = logger('kruise-webhooks');
  // the kinds the pod steps read on every pod create, update or delete
  const reads = cachedReads(options.client, [SidecarSets, PodUnavailableBudgets, PodProbeMarkers, WorkloadSpreads, PersistentPodStates], options.informers);
  const handlers = await registerHandlers(webhookInventory, options.kinds ?? kruiseKindWebhooks(options.namespace), { client: reads.client, gate: options.gates });
  const server = await startWebhookServer({ host: options.host, port: options.port, certDir: options.certDir, handlers, registry: options.registry, log });
  const dnsName = options.webhookHost ?? `${options.serviceName}.${options.namespace}.svc`;
  const artifacts = { dnsName, algorithm: options.keyAlgorithm, renewBeforeMs: options.renewBeforeMs, certDir: options.certDir };
  const writer: CertWriter = options.certWriter === 'secret'
    ? createSecretCertWriter({ ...artifacts, client: options.client, namespace: options.namespace, secretName: options.secretName })
    : createFsCertWriter(artifacts);
  const controller = await startConfigurationController({
    client: options.client, certWriter: writer, log,
    secret: options.certWriter === 'secret' ? { namespace: options.namespace, name: options.secretName } : undefined,
    mutatingName: mutatingConfigurationName, validatingName: validatingConfigurationName,
    endpoint: { namespace: options.namespace, serviceName: options.serviceName, url: options.webhookHost ? { host: options.webhookHost, port: server.port } : undefined },
    served: (path) => handlers.has(path),
    onCerts: async () => { await server.reloadCerts(); },
    resyncMs: options.resyncMs,
  });
  const ready = controller.ready.then(() => selfCheck(server.host, server.port, controller.caPem()!));
  ready.then(() => log.info({ webhookPort: server.port, paths: handlers.size }, 'Webhooks ready'), () => undefined);
  return {
    port: server.port,
    get caPem() { return controller.caPem() ?? ''; },
    paths: [...handlers.keys()].sort(),
    ready,
    metrics: server.registry,
    async stop() {
      reads.stop();
      await controller.stop();
      await server.close();
    },
  };
}

/** `GET https://localhost:<port>/healthz` verified with the CA, retried briefly while the server reloads. */
async function selfCheck(boundHost: string, port: number, caPem: string): Promise<void> {
  const host = boundHost === '0.0.0.0' ? '127.0.0.1' : boundHost === '::' ? '::1' : boundHost;
  let lastError: unknown;
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      return await healthz(host, port, caPem);
    } catch (e) {
      lastError = e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`webhook server self-check failed: ${(lastError as Error).message}`);
}

function healthz(host: string, port: number, ca: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = https.get({ host, port, path: '/healthz', ca, servername: 'localhost', agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`/healthz answered ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error('/healthz timed out')));
    req.on('error', reject);
  });
}

export { aggregateMessage, admissionHandler, hubApiVersion, type AdmissionHandler, type HandlerContext } from './handlers.js';
export { AdmissionDenied, type AdmissionInput, type KindWebhooks } from './kind-webhook.js';
