/**
 * Node obligation K11 (docs/design/simulated-nodes.md §19), the API server's part: a mutating
 * webhook (a real HTTPS server on 127.0.0.1 with its own CA) may name a pod created with
 * generateName, and pods/status writes keep the labels and annotations they change.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionReview } from '../../api/admission.js';
import { MutatingWebhookConfigurations, Pods } from '../../api/resource-type.js';
import { admissionAnswer, startTestWebhookServer, webhookConfiguration, type TestWebhookServer } from '../../apiserver/admission/testkit.js';
import type { Client } from '../../client/client.js';
import { createHttpClient } from '../../client/http-client.js';
import { containerNamed } from '../../testing/kubelet-env.js';
import { server as nginx, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Pod } from '../../api/core/index.js';

let k: NodesEnv;
let webhook: TestWebhookServer;
let http: Client;

before(async () => {
  [k, webhook] = await Promise.all([startNodesEnv({ count: 1 }), startTestWebhookServer()]);
  http = createHttpClient({ kubeconfigPath: k.env.kubeconfig });
});

after(async () => {
  await k.stop();
  await webhook.close();
});

/** Names a pod that has none yet: `<generateName>by-webhook`. */
function nameUnnamed(review: AdmissionReview) {
  const meta = (review.request!.object as Pod).metadata;
  return admissionAnswer(review, meta.name ? {} : { patch: [{ op: 'add', path: '/metadata/name', value: `${meta.generateName}by-webhook` }] });
}

test('K11: a mutating webhook may set metadata.name on a generateName create; pods/status writes may change labels and annotations', async (t) => {
  await t.test('the webhook sees no name and the name it sets is the one stored', async () => {
    webhook.handle('/name-pods', nameUnnamed);
    await k.client.create(MutatingWebhookConfigurations, webhookConfiguration('MutatingWebhookConfiguration', 'k11-namer', [{
      name: 'namer.k11.example.com', clientConfig: { url: `${webhook.url}/name-pods`, caBundle: webhook.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      objectSelector: { matchLabels: { k11: 'name-me' } },
    }]));
    const created = await http.create<Pod>(Pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'k11-', namespace: 'default', labels: { k11: 'name-me' } }, spec: { containers: [nginx()] },
    });
    assert.equal(created.metadata.name, 'k11-by-webhook');
    const [review] = webhook.reviews('/name-pods');
    assert.deepEqual([review.request!.name ?? '', (review.request!.object as Pod).metadata.generateName], ['', 'k11-']);
    const pod = await k.podWhere('k11-by-webhook', (p) => !!containerNamed(p, 'app')?.state?.running, 'scheduled and running under that name');
    assert.equal(pod.metadata.uid, created.metadata.uid);
  });

  await t.test('labels and annotations written through pods/status are kept, also after the kubelet writes status again', async () => {
    await http.patch(Pods, 'default', 'k11-by-webhook', 'merge', {
      metadata: { labels: { 'k11-status': 'patched' }, annotations: { 'k11.example.com/by': 'status-patch' } },
    }, { subresource: 'status' });
    const current = await k.getPod('k11-by-webhook');
    assert.deepEqual([current.metadata.labels!['k11-status'], current.metadata.annotations!['k11.example.com/by']], ['patched', 'status-patch']);
    const updated = await http.updateStatus<Pod>(Pods, { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, 'k11-status': 'put' } } });
    assert.equal(updated.metadata.labels!['k11-status'], 'put');
    k.nodes.setContainerReady('default', 'k11-by-webhook', 'app', false); // the kubelet writes status again
    const after = await k.podWhere('k11-by-webhook', (p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False') === true, 'kubelet status write');
    assert.deepEqual([after.metadata.labels!['k11-status'], after.metadata.annotations!['k11.example.com/by']], ['put', 'status-patch']);
    assert.equal(after.metadata.labels!.k11, 'name-me');
  });
});
