/**
 * Test kit: an embedded control plane with Kruise installed and the manager's webhooks served
 * in-process on 127.0.0.1 (URL form, certificates in the test dir), ready before it returns.
 */
import path from 'node:path';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/index.js';
import type { ControlPlane } from '../apiserver/server.js';
import { kruiseFeatureGates } from '../features/kruise.js';
import { installKruise } from '../install/install.js';
import { webhookSecretName, webhookServiceName } from '../api/kruise/webhook-inventory.js';
import type { KindWebhooks } from '../webhooks/kind-webhook.js';
import { startKruiseWebhooks, type KruiseWebhooks } from '../webhooks/index.js';
import { startTestControlPlane, type TestControlPlane } from './control-plane.js';

export interface KruiseTestEnvOptions {
  /** Feature gates as on the command line, e.g. `ResourcesDeletionProtection=true`. */
  gates?: string;
  inMemory?: boolean;
  /** Handler modules to serve instead of src/webhooks/kinds.ts. */
  kinds?: Record<string, KindWebhooks>;
}

export interface KruiseTestEnv {
  plane: ControlPlane;
  client: Client;
  kubeconfig: string;
  kubectl: TestControlPlane['kubectl'];
  webhooks: KruiseWebhooks;
  stop(): Promise<void>;
}

export async function startKruiseTestEnv(options: KruiseTestEnvOptions = {}): Promise<KruiseTestEnv> {
  const env = await startTestControlPlane({ inMemory: options.inMemory ?? true });
  try {
    const client = createInProcessClient(env.plane.handler, undefined, 'kruise-test');
    await installKruise(client);
    const gates = kruiseFeatureGates(options.gates ?? '');
    const webhooks = await startKruiseWebhooks({
      client, gates: (g) => gates.enabled(g), namespace: 'kruise-system', host: '127.0.0.1', port: 0,
      certDir: path.join(env.dir, 'webhook-certs'), certWriter: 'fs', secretName: webhookSecretName, serviceName: webhookServiceName,
      // ECDSA: an RSA 2048 CA and serving key cost ~300 ms per environment.
      webhookHost: '127.0.0.1', kinds: options.kinds, keyAlgorithm: 'ecdsa-p256',
    });
    await withTimeout(webhooks.ready, 30_000, 'webhooks not ready after 30 s').catch(async (e: unknown) => {
      await webhooks.stop();
      throw e;
    });
    return {
      plane: env.plane, client, kubeconfig: env.kubeconfig, kubectl: env.kubectl, webhooks,
      async stop() {
        await webhooks.stop();
        await env.stop();
      },
    };
  } catch (e) {
    await env.stop();
    throw e;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
