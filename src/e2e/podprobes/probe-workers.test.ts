/**
 * kruise-daemon's probe workers across changes (docs/design/pod-probes.md §4, §5, §8): a daemon
 * restarted takes probing up again from the NodePodProbe, keeping the states already reported and
 * running one worker per probe (its `/metrics` gauge); a probe taken out of the marker stops its
 * worker and its state leaves the status.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import { createInProcessClient } from '../../client/index.js';
import { createKruiseDaemon, type KruiseDaemon } from '../../daemon/daemon.js';
import { discoverRuntimes, type RuntimeRegistry } from '../../daemon/runtime/registry.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import { condition, gamePod, getNodeProbes, getPod, idleMarker, ns, runningPod, startProbeEnv, stateOf } from './probe-kit.js';

const node = 'kruise-node-0';
let w: WorkloadEnv;
let own: { daemon: KruiseDaemon; runtimes: RuntimeRegistry } | undefined;
before(async () => { w = await startProbeEnv(); });
after(async () => {
  await own?.daemon.stop();
  own?.runtimes.close();
  await w.stop();
});

const exec = (name: string, conditionType: string) => ({
  name, containerName: 'main', probe: { exec: { command: ['test', '-f', `/tmp/${name}`] }, periodSeconds: 1 }, podConditionType: conditionType,
});

async function workersGauge(daemon: KruiseDaemon): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${daemon.healthPort()}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('kruise_daemon_pod_probe_workers '));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

test('a restarted daemon resumes probing with one worker per probe; a removed probe stops its worker and leaves the status', async () => {
  await w.client.create(Pods, gamePod('r1', 'restart', { nodeName: node }));
  await w.client.create(PodProbeMarkers, idleMarker('r1', 'restart', [exec('idle', 'game.io/idle'), exec('busy', 'game.io/busy')]));
  const pod = await runningPod(w, 'r1');
  const [idle, busy] = await eventually('both probed', async () => {
    const states = [await stateOf(w, pod, 'r1#idle'), await stateOf(w, pod, 'r1#busy')];
    return states.every((s) => s?.state === 'Succeeded') ? states : undefined;
  }, 30_000);

  await w.daemons()!.stop();
  const runtimes = await discoverRuntimes({ socketFile: w.nodes().criSocket(node) });
  const daemon = createKruiseDaemon({
    client: createInProcessClient(w.env.plane.handler, undefined, 'kruise-daemon'), nodeName: node, runtimes, gate: () => true,
    health: { host: '127.0.0.1', port: 0 }, network: w.nodes().probeNetwork(),
  });
  own = { daemon, runtimes };
  await daemon.start();
  await eventually('two workers', async () => (await workersGauge(daemon)) === 2, 15_000);
  assert.deepEqual([(await stateOf(w, pod, 'r1#idle'))?.lastTransitionTime, (await stateOf(w, pod, 'r1#busy'))?.lastTransitionTime],
    [idle!.lastTransitionTime, busy!.lastTransitionTime], 'states kept across the restart');

  await w.client.patch(Pods, ns, 'r1', 'merge', { metadata: { annotations: { 'kruise-ts.io/simulate-exec.main': 'fail' } } });
  await eventually('the new daemon probes', async () => condition(await getPod(w, 'r1'), 'game.io/idle')?.status === 'False', 30_000);
  assert.equal(await workersGauge(daemon), 2, 'still one worker per probe');

  await w.client.patch(PodProbeMarkers, ns, 'r1', 'merge', { spec: { probes: [exec('idle', 'game.io/idle')] } });
  await eventually('one worker', async () => (await workersGauge(daemon)) === 1, 15_000);
  await eventually('busy left the NodePodProbe', async () => {
    const npp = await getNodeProbes(w, node);
    const entry = npp.spec?.podProbes?.find((e) => e.uid === pod.metadata.uid);
    const states = npp.status?.podProbeStatuses?.find((s) => s.uid === pod.metadata.uid)?.probeStates ?? [];
    return entry?.probes?.map((p) => p.name).join() === 'r1#idle' && states.map((s) => s.name).join() === 'r1#idle';
  }, 15_000);
});
