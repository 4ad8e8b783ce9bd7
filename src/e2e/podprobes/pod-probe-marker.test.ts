/**
 * PodProbeMarker end to end (docs/design/pod-probes.md §8): the manager's two controllers, the
 * webhook and one kruise-daemon per simulated node, whose exec probes go through CRI ExecSync and
 * whose tcpSocket probes meet the simulated pod network; outcomes scripted by pod annotations.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodePodProbeCleanupFinalizer } from '../../api/kruise/ops/podprobemarker.js';
import { PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { Events, Nodes, Pods } from '../../api/resource-type.js';
import { StatusError } from '../../machinery/errors.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  condition, entryOf, gamePod, getMarker, getNodeProbes, getPod, gone, idleMarker, ns, runningPod, startProbeEnv, stateOf,
} from './probe-kit.js';
import type { Event, Node } from '../../api/core/index.js';

let w: WorkloadEnv;
before(async () => { w = await startProbeEnv(); });
after(() => w.stop());

const deletionCost = 'controller.kubernetes.io/pod-deletion-cost';

test('8.5-1: one NodePodProbe per node; a marker gets its finalizer, its probe in the pod\'s NodePodProbe and matchedPods', async () => {
  const nodes = (await w.client.list<Node>(Nodes)).items.map((n) => n.metadata.name!).sort();
  for (const node of nodes) await eventually(`NodePodProbe ${node}`, () => getNodeProbes(w, node), 15_000);
  await w.client.create(Pods, gamePod('s1'));
  await w.client.create(PodProbeMarkers, idleMarker('s1', 'game'));
  const pod = await runningPod(w, 's1');
  const entry = await eventually('s1 listed', () => entryOf(w, pod), 30_000);
  assert.deepEqual([entry.name, entry.namespace, entry.IP, entry.probes?.map((p) => [p.name, p.containerName])],
    ['s1', ns, pod.status!.podIP, [['s1#idle', 'main']]]);
  const ppm = await eventually('matchedPods 1', async () => { const m = await getMarker(w, 's1'); return m.status?.matchedPods === 1 ? m : undefined; });
  assert.deepEqual(ppm.metadata.finalizers, [NodePodProbeCleanupFinalizer]);
  assert.equal(ppm.status?.observedGeneration, ppm.metadata.generation);
  await w.client.delete(PodProbeMarkers, ns, 's1');
  await w.client.delete(Pods, ns, 's1');
});

test('8.5-2: ExecSync succeeding marks the pod idle; failing flips the condition, sets deletion cost and removes the label', async () => {
  await w.client.create(Pods, gamePod('s2', 'game2'));
  await w.client.create(PodProbeMarkers, idleMarker('s2', 'game2'));
  const pod = await runningPod(w, 's2');
  const idle = await eventually('idle', async () => {
    const p = await getPod(w, 's2');
    return condition(p, 'game.io/idle')?.status === 'True' && p.metadata.labels?.idle === 'true' ? p : undefined;
  }, 30_000);
  assert.equal(idle.metadata.annotations?.[deletionCost], undefined);
  const succeeded = (await stateOf(w, pod, 's2#idle'))!;
  assert.equal(succeeded.state, 'Succeeded');
  assert.ok(succeeded.lastProbeTime && succeeded.lastTransitionTime);
  assert.equal(condition(idle, 'game.io/idle')?.lastTransitionTime, succeeded.lastTransitionTime);

  await w.client.patch(Pods, ns, 's2', 'merge', { metadata: { annotations: { 'kruise-ts.io/simulate-exec.main': 'fail' } } });
  const busy = await eventually('busy', async () => {
    const p = await getPod(w, 's2');
    return condition(p, 'game.io/idle')?.status === 'False' && p.metadata.annotations?.[deletionCost] === '10' ? p : undefined;
  }, 30_000);
  assert.equal(busy.metadata.labels?.idle, undefined, 'label idle removed');
  const failed = (await stateOf(w, pod, 's2#idle'))!;
  assert.equal(failed.state, 'Failed');
  assert.ok(Date.parse(failed.lastTransitionTime!) >= Date.parse(succeeded.lastTransitionTime!));
  const reasons = async () => [...new Set((await w.client.list<Event>(Events, { namespace: ns })).items
    .filter((e) => e.involvedObject.name === 's2' && e.source?.component === 'kruise-daemon-podprobe').map((e) => e.reason))].sort().join();
  await eventually('both events', async () => (await reasons()) === 'KruiseProbeFailed,KruiseProbeSucceeded');
});

test('8.5-3: tcpSocket and httpGet probes\' named port becomes the container port; the listener going down fails them', async () => {
  await w.client.create(Pods, gamePod('s3', 'game3', { ports: [{ name: 'http', containerPort: 8080 }] }));
  await w.client.create(PodProbeMarkers, idleMarker('s3', 'game3', [{
    name: 'serving', containerName: 'main', probe: { tcpSocket: { port: 'http' }, periodSeconds: 1 }, podConditionType: 'game.io/serving',
  }, {
    name: 'web', containerName: 'main', probe: { httpGet: { port: 'http', path: '/healthz', scheme: 'HTTP' }, periodSeconds: 1 }, podConditionType: 'game.io/web',
  }]));
  const pod = await runningPod(w, 's3');
  const entry = await eventually('s3 listed', () => entryOf(w, pod), 30_000);
  assert.deepEqual(entry.probes?.[0]?.probe.tcpSocket, { port: 8080 });
  assert.equal(entry.probes?.[1]?.probe.httpGet?.port, 8080);
  await eventually('serving', async () => {
    const p = await getPod(w, 's3');
    return condition(p, 'game.io/serving')?.status === 'True' && condition(p, 'game.io/web')?.status === 'True';
  }, 30_000);
  await w.client.patch(Pods, ns, 's3', 'merge', { metadata: { annotations: { 'kruise-ts.io/simulate-listeners': 'fail' } } });
  const down = await eventually('not serving', async () => {
    const c = condition(await getPod(w, 's3'), 'game.io/serving');
    return c?.status === 'False' ? c : undefined;
  }, 30_000);
  assert.equal(down.message, `dial tcp ${pod.status!.podIP}:8080: connect: connection refused`);
  const web = await eventually('web down', async () => {
    const c = condition(await getPod(w, 's3'), 'game.io/web');
    return c?.status === 'False' ? c : undefined;
  }, 30_000);
  assert.equal(web.message, `Get "http://${pod.status!.podIP}:8080/healthz": dial tcp ${pod.status!.podIP}:8080: connect: connection refused`);
});

test('8.5-4: bad markers are refused naming the field', async () => {
  const refusal = (p: Promise<unknown>) => p.then(() => assert.fail('accepted'), (e: unknown) => e as StatusError);
  const http = idleMarker('bad1', 'x', [{
    name: 'web', containerName: 'main', probe: { httpGet: { path: '/healthz', port: 80 } }, podConditionType: 'x.io/web',
  }]);
  const e1 = await refusal(w.client.create(PodProbeMarkers, http));
  assert.equal(e1.code, 400);
  assert.match(e1.message, /spec\.probes\[0\]\.probe\.httpGet\.scheme: Unsupported value: "": supported values: "HTTP", "HTTPS"/);
  const ready = idleMarker('bad2');
  ready.spec!.probes[0].name = 'Ready';
  const e2 = await refusal(w.client.create(PodProbeMarkers, ready));
  assert.match(e2.message, /spec\.probes\[0\]\.name: Invalid value: "Ready": probe name can't be Ready/);
  await w.client.create(PodProbeMarkers, idleMarker('s4', 'game4'));
  const e3 = await refusal(w.client.patch(PodProbeMarkers, ns, 's4', 'merge', { spec: { selector: { matchLabels: { app: 'other' } } } }));
  assert.match(e3.message, /spec\.selector: Invalid value: .*selector must be immutable/);
});

test('8.5-5: deleting a marker takes its probe out of the NodePodProbe, then the marker goes', async () => {
  await w.client.create(Pods, gamePod('s5', 'game5'));
  await w.client.create(PodProbeMarkers, idleMarker('s5', 'game5'));
  const pod = await runningPod(w, 's5');
  await eventually('s5 listed', () => entryOf(w, pod), 30_000);
  await eventually('finalizer', async () => (await getMarker(w, 's5')).metadata.finalizers?.includes(NodePodProbeCleanupFinalizer));
  await w.client.delete(PodProbeMarkers, ns, 's5');
  await eventually('marker gone', () => gone(() => getMarker(w, 's5')), 30_000);
  assert.equal(await entryOf(w, pod), undefined, 'no s5#idle left');
  await eventually('status entry gone', async () => (await stateOf(w, pod, 's5#idle')) === undefined, 30_000);
});

test('8.5-6: a deleted pod leaves the NodePodProbe spec and status', async () => {
  await w.client.create(Pods, gamePod('s6', 'game6'));
  await w.client.create(PodProbeMarkers, idleMarker('s6', 'game6'));
  const pod = await runningPod(w, 's6');
  await eventually('s6 probed', async () => (await stateOf(w, pod, 's6#idle'))?.state === 'Succeeded', 30_000);
  await w.client.delete(Pods, ns, 's6');
  await eventually('s6 gone from the NodePodProbe', async () => {
    const npp = await getNodeProbes(w, pod.spec.nodeName!);
    return !npp.spec?.podProbes?.some((e) => e.uid === pod.metadata.uid) && !npp.status?.podProbeStatuses?.some((s) => s.uid === pod.metadata.uid);
  }, 30_000);
  await eventually('matchedPods 0', async () => (await getMarker(w, 's6')).status?.matchedPods === 0);
});
