/**
 * Kubelet admission on simulated nodes (docs/design/simulated-nodes.md §21): pods bound straight to
 * a node (spec.nodeName, no scheduler involved) that the node cannot hold are rejected as kubelet
 * rejects them: phase Failed, kubelet's reason and `Pod was rejected: ...` message, a Warning event
 * with the same reason; pods it can hold run.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Events, Nodes } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import { server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Pod } from '../../api/core/index.js';

let k: NodesEnv;
const node = 'kruise-node-0';

before(async () => {
  k = await startNodesEnv({ count: 1, capacity: { cpu: '2', memory: '1Gi', pods: '4' } });
});

after(() => k.stop());

const requests = (cpu: string, memory = '10Mi') => ({ resources: { requests: { cpu, memory } } });
const failed = (p: Pod) => p.status?.phase === 'Failed';
const runningPod = (p: Pod) => p.status?.phase === 'Running';

async function rejection(name: string): Promise<[string | undefined, string | undefined, string | undefined]> {
  const pod = await k.podWhere(name, failed, 'rejected');
  const events = await k.client.list<KObject & { reason?: string; message?: string; type?: string; involvedObject?: { name?: string } }>(Events, { namespace: 'default' });
  const event = events.items.find((e) => e.involvedObject?.name === name && e.reason === pod.status?.reason);
  assert.equal(event?.type, 'Warning');
  assert.equal(`Pod was rejected: ${event?.message}`, pod.status?.message);
  return [pod.status?.phase, pod.status?.reason, pod.status?.message];
}

test('kubelet admission: resources, host ports, node selector and NoExecute taints reject with kubelet\'s reasons', async () => {
  await k.createPod('big', { nodeName: node, containers: [server('app', 'nginx:1.25', { ...requests('1500m'), ports: [{ containerPort: 80, hostPort: 8080 }] })] });
  await k.podWhere('big', runningPod, 'running');

  await k.createPod('too-much-cpu', { nodeName: node, containers: [server('app', 'nginx:1.25', requests('1'))] });
  assert.deepEqual(await rejection('too-much-cpu'), ['Failed', 'OutOfcpu', 'Pod was rejected: Node didn\'t have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000']);

  await k.createPod('too-much-memory', { nodeName: node, containers: [server('app', 'nginx:1.25', requests('100m', '2Gi'))] });
  assert.deepEqual(await rejection('too-much-memory'), ['Failed', 'OutOfmemory', `Pod was rejected: Node didn't have enough resource: memory, requested: ${2 * 1024 ** 3}, used: ${10 * 1024 ** 2}, capacity: ${1024 ** 3}`]);

  await k.createPod('same-port', { nodeName: node, containers: [server('app', 'nginx:1.25', { ports: [{ containerPort: 80, hostPort: 8080 }] })] });
  assert.deepEqual(await rejection('same-port'), ['Failed', 'NodePorts', 'Pod was rejected: Predicate NodePorts failed: node(s) didn\'t have free ports for the requested pod ports']);

  await k.createPod('elsewhere', { nodeName: node, nodeSelector: { disk: 'ssd' }, containers: [server()] });
  assert.deepEqual(await rejection('elsewhere'), ['Failed', 'NodeAffinity', 'Pod was rejected: Predicate NodeAffinity failed: node(s) didn\'t match Pod\'s node affinity/selector']);

  await k.client.patch(Nodes, undefined, node, 'merge', { spec: { taints: [{ key: 'maintenance', value: 'now', effect: 'NoExecute' }, { key: 'soft', effect: 'NoSchedule' }] } });
  await k.createPod('untolerated', { nodeName: node, containers: [server()] });
  assert.deepEqual(await rejection('untolerated'), ['Failed', 'TaintToleration', 'Pod was rejected: Predicate TaintToleration failed: node(s) had taints that the pod didn\'t tolerate']);
  // NoSchedule is the scheduler's business: a pod bound directly that tolerates the NoExecute taint runs
  await k.createPod('tolerant', { nodeName: node, tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute' }], containers: [server()] });
  await k.podWhere('tolerant', runningPod, 'running despite the NoSchedule taint');

  // rejected pods hold nothing: the node has room for two more, then is full
  await k.createPod('fits', { nodeName: node, tolerations: [{ operator: 'Exists' }], containers: [server()] });
  await k.podWhere('fits', runningPod, 'running');
  await k.createPod('fourth', { nodeName: node, tolerations: [{ operator: 'Exists' }], containers: [server()] });
  await k.podWhere('fourth', runningPod, 'running');
  await k.createPod('fifth', { nodeName: node, tolerations: [{ operator: 'Exists' }], containers: [server()] });
  assert.deepEqual(await rejection('fifth'), ['Failed', 'OutOfpods', 'Pod was rejected: Node didn\'t have enough resource: pods, requested: 1, used: 4, capacity: 4']);
});
