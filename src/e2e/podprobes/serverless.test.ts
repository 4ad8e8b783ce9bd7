/**
 * PodProbeMarker on serverless nodes (gate EnablePodProbeMarkerOnServerless; docs/design/pod-probes.md
 * §2, §8 scenario 7): a pod created where a marker selects it carries the marker's probes in
 * `kruise.io/podprobe`; on a virtual-kubelet node no kruise-daemon probes it (no NodePodProbe entry),
 * and the condition its platform reports becomes the marker policy's labels.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PodProbeAnnotation, PodProbeMarkerListAnnotation } from '../../api/kruise/ops/podprobemarker.js';
import { PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { eventually, holds, type WorkloadEnv } from '../../testing/workload-env.js';
import { entryOf, gamePod, getMarker, getPod, idleMarker, ns, runningPod, startProbeEnv } from './probe-kit.js';

const node = 'kruise-node-1';
let w: WorkloadEnv;
before(async () => { w = await startProbeEnv('EnablePodProbeMarkerOnServerless=true'); });
after(() => w.stop());

test('8.5-7: a serverless pod gets the probe annotation; its reported condition becomes the idle label', async () => {
  await w.client.patch(Nodes, undefined, node, 'merge', { metadata: { labels: { type: 'virtual-kubelet' } } });
  await w.client.create(PodProbeMarkers, idleMarker('idle', 'sl'));
  const created = await w.client.create(Pods, gamePod('sl1', 'sl', { nodeName: node }));
  assert.equal(created.metadata.annotations?.[PodProbeMarkerListAnnotation], 'idle');
  assert.deepEqual(JSON.parse(created.metadata.annotations?.[PodProbeAnnotation] ?? '[]'), [
    { name: 'idle', containerName: 'main', probe: { exec: { command: ['cat', '/tmp/idle'] }, periodSeconds: 1 }, podConditionType: 'game.io/idle' },
  ]);
  const pod = await runningPod(w, 'sl1');
  await eventually('matched', async () => (await getMarker(w, 'idle')).status?.matchedPods === 1, 30_000);
  await holds('no kruise-daemon probes it', async () => ((await entryOf(w, pod)) ? 'listed in the NodePodProbe' : undefined), 1500);
  assert.equal((await getPod(w, 'sl1')).metadata.labels?.idle, undefined);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await w.client.patch(Pods, ns, 'sl1', 'strategic', { status: { conditions: [{ type: 'game.io/idle', status: 'True', lastTransitionTime: now }] } }, { subresource: 'status' });
  await eventually('idle label', async () => (await getPod(w, 'sl1')).metadata.labels?.idle === 'true', 30_000);
});
