/**
 * Child process of `bench:admission`: one embedded control plane (in memory) with Kruise installed.
 *   --mode up     the manager's webhooks served in this process too, as `kruise up` does
 *   --mode split  no webhook server: a separate `kruise manager` process serves them
 *   --mode bare   the webhook configurations deleted: CRDs served, no admission webhooks at all
 * Prints one JSON line `{"ready":true,"kubeconfig":...}` once it serves; SIGTERM stops it.
 */
import path from 'node:path';
import { MutatingWebhookConfigurations, ValidatingWebhookConfigurations } from '../api/resource-type.js';
import { mutatingConfigurationName, validatingConfigurationName, webhookSecretName, webhookServiceName } from '../api/kruise/webhook-inventory.js';
import { createInProcessClient } from '../client/index.js';
import { promRegistry } from '../apiserver/http/metrics.js';
import { kruiseFeatureGates, tryItOutGates } from '../features/kruise.js';
import { installKruise } from '../install/install.js';
import { startTestControlPlane } from '../testing/control-plane.js';
import { startKruiseWebhooks } from '../webhooks/index.js';

type Mode = 'up' | 'split' | 'bare';

async function main(): Promise<void> {
  const mode = process.argv[process.argv.indexOf('--mode') + 1] as Mode;
  if (!['up', 'split', 'bare'].includes(mode)) throw new Error('usage: admission-plane --mode up|split|bare');
  const env = await startTestControlPlane({ inMemory: true });
  const client = createInProcessClient(env.plane.handler, undefined, 'kruise-bench');
  await installKruise(client);
  let stopWebhooks = async () => undefined as void;
  if (mode === 'bare') {
    await client.delete(MutatingWebhookConfigurations, undefined, mutatingConfigurationName);
    await client.delete(ValidatingWebhookConfigurations, undefined, validatingConfigurationName);
  } else if (mode === 'up') {
    const gates = kruiseFeatureGates('', tryItOutGates);
    const webhooks = await startKruiseWebhooks({
      client, gates: (g) => gates.enabled(g), namespace: 'kruise-system', host: '127.0.0.1', port: 0,
      certDir: path.join(env.dir, 'webhook-certs'), certWriter: 'fs', secretName: webhookSecretName, serviceName: webhookServiceName,
      // As `kruise up`, plus the API server's registry so its /metrics also shows the handler latency.
      webhookHost: '127.0.0.1', keyAlgorithm: 'ecdsa-p256', registry: promRegistry,
    });
    await webhooks.ready;
    stopWebhooks = () => webhooks.stop();
  }
  console.log(JSON.stringify({ ready: true, mode, kubeconfig: env.kubeconfig, pid: process.pid }));
  process.once('SIGTERM', () => void stopWebhooks().then(() => env.stop()).then(() => process.exit(0)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
