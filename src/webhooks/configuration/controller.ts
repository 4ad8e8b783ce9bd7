/**
 * The webhook-configuration controller (docs/design/webhooks.md §5): on any change of the certificate
 * Secret, the two webhook configurations or a CRD, and every minute, it makes sure the
 * certificates exist, rebuilds both configurations from their saved template (unserved paths
 * dropped, caBundle set, pointed at this manager) and points every Kruise CRD's conversion at
 * `/convert`. It runs on every replica; failures retry with backoff; `ready` resolves after the
 * first successful sync.
 */
import {
  CustomResourceDefinitions, MutatingWebhookConfigurations, Secrets, ValidatingWebhookConfigurations, type ResourceType,
} from '../../api/resource-type.js';
import { kruiseKinds } from '../../api/kruise/index.js';
import { templateAnnotation } from '../../api/kruise/webhook-inventory.js';
import type { Client } from '../../client/client.js';
import { retryOnConflict } from '../../client/retry.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { logger, type Logger } from '../../machinery/log.js';
import { Controller, exponentialRateLimiter, SharedInformerFactory } from '../../runtime/index.js';
import type { CertWriter, WebhookCerts } from '../certs/index.js';
import { conversionFor, rebuildWebhooks, templateOf, type WebhookEndpoint } from './rebuild.js';

export interface ConfigurationControllerOptions {
  client: Client;
  certWriter: CertWriter;
  /** Watched when the certificates live in a Secret. */
  secret?: { namespace: string; name: string };
  mutatingName: string;
  validatingName: string;
  endpoint: WebhookEndpoint;
  /** Whether a handler serves this path. */
  served(path: string): boolean;
  /** Called with fresh certificates before the configurations are written (the server reloads). */
  onCerts?(certs: WebhookCerts): Promise<void> | void;
  resyncMs?: number;
  log?: Logger;
}

export interface ConfigurationController {
  ready: Promise<void>;
  /** The CA of the last successful sync. */
  caPem(): string | undefined;
  stop(): Promise<void>;
}

const kruiseGroups = new Set<string>(kruiseKinds.map((k) => k.group));
const knownKinds = new Set(kruiseKinds.map((k) => `${k.group}/${k.kind}`));

export async function startConfigurationController(options: ConfigurationControllerOptions): Promise<ConfigurationController> {
  const log = options.log ?? logger('webhook-configuration');
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => { markReady = resolve; });
  let ca: string | undefined;
  const sync = async () => {
    const certs = await options.certWriter.ensure();
    await options.onCerts?.(certs);
    const caBundle = Buffer.from(certs.caCertPem).toString('base64');
    await syncConfiguration(options, MutatingWebhookConfigurations, options.mutatingName, caBundle, log);
    await syncConfiguration(options, ValidatingWebhookConfigurations, options.validatingName, caBundle, log);
    await syncCrds(options, caBundle, log);
    ca = certs.caCertPem;
    markReady();
  };

  // One key for everything: any event (or the periodic requeue) means "sync it all once".
  const controller = new Controller({
    name: 'webhook-configuration', log, rateLimiter: exponentialRateLimiter({ baseMs: 100, maxMs: 30_000 }),
    reconciler: async () => {
      await sync();
      return { requeueAfterMs: options.resyncMs ?? 60_000 };
    },
  });
  const key = () => [{ name: 'webhook-configuration' }];
  const byName = (name: string) => ({ fieldSelector: `metadata.name=${name}` });
  const informers = new SharedInformerFactory({ client: options.client, log, backoff: { initialMs: 200, maxMs: 10_000 } });
  if (options.secret) controller.watches(informers.informerFor(Secrets, { namespace: options.secret.namespace, ...byName(options.secret.name) }), key);
  controller.watches(informers.informerFor(MutatingWebhookConfigurations, byName(options.mutatingName)), key);
  controller.watches(informers.informerFor(ValidatingWebhookConfigurations, byName(options.validatingName)), key);
  controller.watches(informers.informerFor(CustomResourceDefinitions), key);
  informers.start();
  void controller.start();
  return {
    ready,
    caPem: () => ca,
    async stop() {
      await controller.stop();
      informers.stop();
    },
  };
}

async function syncConfiguration(options: ConfigurationControllerOptions, type: ResourceType, name: string, caBundle: string, log: Logger): Promise<void> {
  await retryOnConflict(async () => {
    // Read live rather than from the cache: the update below must not be based on a stale copy.
    const config = await options.client.get(type, undefined, name);
    const { template, saved } = templateOf(config);
    const webhooks = rebuildWebhooks(template, options.served, options.endpoint, caBundle);
    if (!saved && deepEqual(webhooks, config.webhooks ?? [])) return;
    const annotations = { ...config.metadata.annotations, [templateAnnotation]: saved ? JSON.stringify(template) : config.metadata.annotations![templateAnnotation] };
    await options.client.update(type, { ...config, metadata: { ...config.metadata, annotations }, webhooks });
    log.info({ kind: type.kind, name, webhooks: webhooks.length, templateSaved: saved }, 'Updated webhook configuration');
  });
}

async function syncCrds(options: ConfigurationControllerOptions, caBundle: string, log: Logger): Promise<void> {
  const desired = conversionFor(options.endpoint, caBundle);
  const crds = await options.client.list(CustomResourceDefinitions);
  for (const crd of crds.items) {
    const spec = crd.spec as { group?: string; names?: { kind?: string }; conversion?: { strategy?: string } } | undefined;
    if (!spec?.group || !kruiseGroups.has(spec.group) || !knownKinds.has(`${spec.group}/${spec.names?.kind}`)) continue;
    if (spec.conversion?.strategy !== 'Webhook' || deepEqual(spec.conversion, desired)) continue;
    await options.client.patch(CustomResourceDefinitions, undefined, crd.metadata.name!, 'merge', { spec: { conversion: conversionPatch(desired) } });
    log.debug({ name: crd.metadata.name }, 'Updated CRD conversion webhook');
  }
}

/** A merge patch replacing the conversion section, clearing whichever of url/service is not wanted. */
function conversionPatch(desired: Record<string, unknown>): Record<string, unknown> {
  const patch = structuredClone(desired) as { webhook: { clientConfig: Record<string, unknown> } };
  const config = patch.webhook.clientConfig;
  if (!('url' in config)) config.url = null;
  if (!('service' in config)) config.service = null;
  return patch;
}
