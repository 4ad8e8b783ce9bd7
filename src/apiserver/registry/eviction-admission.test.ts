/**
 * pods/eviction under a validating webhook that judges the pod it reads, as the PUB webhook does
 * (docs/design/podunavailablebudget.md §12): a pod that changes while the webhook judges it is
 * judged again before it is deleted; a resourceVersion the caller set is honoured without a retry.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Pods, ValidatingWebhookConfigurations } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import { setRootLogger } from '../../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { admissionAnswer, startTestWebhookServer, webhookConfiguration, type TestWebhookServer } from '../admission/testkit.js';

setRootLogger(pino({ level: 'silent' }));

const ns = 'evict-race';
let env: TestControlPlane;
let client: Client;
let server: TestWebhookServer;
/** Per pod, the resourceVersion and Ready status the webhook saw at each call. */
const judged = new Map<string, string[]>();

type PodShape = KObject & { status?: { phase?: string; conditions?: { type: string; status: string }[] } };
const readiness = (p: PodShape) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'False';

before(async () => {
  [env, server] = await Promise.all([startTestControlPlane({ inMemory: true }), startTestWebhookServer()]);
  client = createInProcessClient(env.plane.handler);
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { suite: ns } } });
  // Reads the pod as the PUB webhook does; on the first call the "kubelet" turns it Ready meanwhile.
  server.handle(`/${ns}`, async (review) => {
    const name = review.request!.name!;
    const pod = await client.get<PodShape>(Pods, ns, name);
    const seen = judged.get(name) ?? [];
    judged.set(name, [...seen, `${pod.metadata.resourceVersion}:${readiness(pod)}`]);
    if (seen.length === 0) {
      await client.updateStatus(Pods, { ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    }
    return admissionAnswer(review);
  });
  await client.create(ValidatingWebhookConfigurations, webhookConfiguration('ValidatingWebhookConfiguration', ns, [{
    name: `${ns}.example.com`, clientConfig: { url: `${server.url}/${ns}`, caBundle: server.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }],
    namespaceSelector: { matchLabels: { suite: ns } },
  }]));
});

after(async () => {
  await env.stop();
  await server.close();
});

async function unreadyPod(name: string): Promise<PodShape> {
  const created = await client.create<PodShape>(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] } });
  return client.updateStatus<PodShape>(Pods, { ...created, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } });
}

const evict = (name: string, deleteOptions?: unknown) =>
  client.createSubresource(Pods, ns, name, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns }, deleteOptions });

test('a pod that turns Ready while the webhook judges its eviction is judged again, Ready, before it is deleted', async () => {
  const pod = await unreadyPod('turns-ready');
  await evict('turns-ready');
  const seen = judged.get('turns-ready')!;
  assert.equal(seen.length, 2, `judged ${seen.join(', ')}`);
  assert.equal(seen[0], `${pod.metadata.resourceVersion}:False`);
  assert.match(seen[1], /:True$/, 'the second judgement saw the pod Ready');
  const gone = await client.get<PodShape>(Pods, ns, 'turns-ready');
  assert.ok(gone.metadata.deletionTimestamp, 'the eviction went through');
  assert.equal(readiness(gone), 'True');
});

test('a resourceVersion the caller set is honoured: the changed pod is not evicted, 409, judged once', async () => {
  const pod = await unreadyPod('pinned');
  const e = await evict('pinned', { preconditions: { resourceVersion: pod.metadata.resourceVersion } }).then(() => undefined, (err: unknown) => err);
  assert.ok(e instanceof StatusError);
  assert.equal(e.code, 409);
  assert.equal(judged.get('pinned')!.length, 1);
  assert.equal((await client.get(Pods, ns, 'pinned')).metadata.deletionTimestamp, undefined);
});
