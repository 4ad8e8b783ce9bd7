/**
 * The manager is "ready" once it synced its webhook configurations, but the API server may not have
 * picked them up yet. Dry-run creates of a pod and a CloneSet prove that both reach the manager's
 * webhooks (their calls show in the API server's webhook histogram) before any phase starts.
 */
import { CloneSets } from '../api/kruise/resource-types.js';
import { Pods } from '../api/resource-type.js';
import type { BenchPlane } from './workloads-plane.js';

const probePod = {
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'webhook-probe', namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'bench/probe:v1' }] },
};

const probeCloneSet = {
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'webhook-probe', namespace: 'default' },
  spec: {
    replicas: 0, selector: { matchLabels: { app: 'webhook-probe' } },
    template: { metadata: { labels: { app: 'webhook-probe' } }, spec: { containers: [{ name: 'c', image: 'bench/probe:v1' }] } },
  },
};

export async function untilWebhooksServe(plane: BenchPlane, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const before = await plane.webhookCalls();
      await plane.client.create(Pods, probePod, { dryRun: true });
      await plane.client.create(CloneSets, probeCloneSet, { dryRun: true });
      const after = await plane.webhookCalls();
      const called = (name: string) => (after[name]?.count ?? 0) > (before[name]?.count ?? 0);
      if (called('mpod.kb.io') && called('mcloneset.kb.io')) return;
      last = 'webhooks not called yet';
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`manager webhooks not serving within ${timeoutMs / 1000} s: ${String(last)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
