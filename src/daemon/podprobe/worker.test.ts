/**
 * One probe worker on a fake clock against the fake runtime (whose ExecSync answers by an exec
 * script): initial delay, thresholds, a new container, a container that stopped, a changed handler.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { FakeClock, flush } from '../../machinery/clock.js';
import { logger } from '../../machinery/log.js';
import { createFakeRuntime } from '../cri/fake-runtime.js';
import type { PodSandboxConfig } from '../cri/types.js';
import type { RuntimeRegistry } from '../runtime/registry.js';
import { hostNetwork } from './network.js';
import { ProbeResults, type ProbeTarget } from './results.js';
import { ProbeWorker } from './worker.js';

const target: ProbeTarget = { podNamespace: 't', podName: 'p', podUid: 'u', containerName: 'main', probeName: 'm#idle', podIP: '' };
const sandbox: PodSandboxConfig = { metadata: { name: 'p', namespace: 't', uid: 'u', attempt: 0 } };

async function setup(options: { failureThreshold?: number; initialDelaySeconds?: number } = {}) {
  const clock = new FakeClock();
  let script: string | undefined;
  const rt = createFakeRuntime({ clock, execScript: () => script });
  await rt.pullImage({ image: 'nginx' });
  const sandboxId = await rt.runPodSandbox(sandbox);
  const start = async () => {
    const id = await rt.createContainer(sandboxId, { metadata: { name: 'main', attempt: 0 }, image: { image: 'nginx' }, labels: { 'io.kubernetes.pod.uid': 'u' } }, sandbox);
    await rt.startContainer(id);
    return id;
  };
  let containerId = await start();
  const pod = (): Pod => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 't', uid: 'u' }, spec: { containers: [{ name: 'main' }] },
    status: { containerStatuses: [{ name: 'main', containerID: `containerd://${containerId}`, image: 'nginx', imageID: '', ready: true, restartCount: 0 }] },
  });
  const runtimes = { forContainerId: (cid: string) => ({ runtime: rt, id: cid.replace('containerd://', ''), runtimeName: 'containerd' }) } as unknown as RuntimeRegistry;
  const seen: string[] = [];
  const results = new ProbeResults(() => undefined);
  const worker = new ProbeWorker(target, { exec: { command: ['cat', '/tmp/idle'] }, periodSeconds: 1, ...options }, {
    clock, log: logger('test'), runtimes, network: hostNetwork, results, pod: (ns, name) => (ns === 't' && name === 'p' ? pod() : undefined), startedAt: clock.now() - 60_000,
  });
  const states = () => seen;
  const step = async (ms: number) => {
    clock.advance(0);
    await flush();
    await clock.advanceAsync(ms, 250);
    const r = results.list()[0];
    const s = r ? `${r.state}${r.message ? `:${r.message}` : ''}` : '-';
    if (seen.at(-1) !== s) seen.push(s);
  };
  return { rt, clock, worker, step, states, setScript: (s?: string) => { script = s; }, restart: async () => { containerId = await start(); }, id: () => containerId };
}

test('a worker waits the initial delay (at least 1 s), then reports after failureThreshold failures in a row', async () => {
  const k = await setup({ failureThreshold: 3, initialDelaySeconds: 2 });
  k.worker.start();
  await k.step(0);
  assert.deepEqual(k.states(), ['Unknown'], 'a new container starts Unknown');
  await k.step(3000);
  assert.deepEqual(k.states(), ['Unknown', 'Succeeded']);
  k.setScript('fail');
  await k.step(2000);
  assert.deepEqual(k.states(), ['Unknown', 'Succeeded'], 'two failures are below the threshold');
  await k.step(1000);
  assert.deepEqual(k.states(), ['Unknown', 'Succeeded', 'Failed']);
  k.worker.stop();
});

test('a stopped container fails at once; its replacement starts Unknown again; a changed handler resets to Unknown', async () => {
  const k = await setup({ initialDelaySeconds: 2 });
  k.worker.start();
  await k.step(0);
  await k.step(2000);
  assert.deepEqual(k.states(), ['Unknown', 'Succeeded']);
  k.rt.killContainer(k.id(), 137);
  await k.step(1000);
  assert.deepEqual(k.states().at(-1), 'Failed:Container(main) is Non-running');
  await k.restart();
  await k.step(1000);
  assert.equal(k.states().at(-1), 'Unknown', 'within the initial delay of the new container');
  await k.step(1000);
  assert.equal(k.states().at(-1), 'Succeeded');
  k.worker.update({ tcpSocket: { port: 80 }, periodSeconds: 1 });
  await k.step(0);
  assert.equal(k.states().at(-1), 'Unknown');
  k.worker.stop();
});

test('ExecSync answers by the exec script: latency past timeoutSeconds is DeadlineExceeded', async () => {
  const k = await setup();
  k.setScript('succeed,latency=3s');
  const answer = k.rt.execSync(k.id(), ['true'], 2).then(() => 'answered', (e: Error) => e.message);
  await flush();
  k.clock.advance(2000);
  assert.equal(await answer, 'failed to exec in container: timeout 2s exceeded: context deadline exceeded');
  k.setScript('fail-after=1m');
  assert.equal((await k.rt.execSync(k.id(), ['true'], 1)).exitCode, 0);
  k.clock.advance(60_000);
  assert.equal((await k.rt.execSync(k.id(), ['true'], 1)).exitCode, 1);
  k.setScript('nonsense');
  const bad = await k.rt.execSync(k.id(), ['true'], 1);
  assert.deepEqual([bad.exitCode, new TextDecoder().decode(bad.stderr)], [2, 'simulated exec script: unknown clause "nonsense" (want succeed, fail, fail-after=D, succeed-after=D, flap=U/D or latency=D)']);
});
