/**
 * `kubectl logs` of a container that writes a line as it exits, on a clock whose timers fire a
 * little before it reads their due time, as Node's timers do against the wall clock (docs/design/streaming.md §8).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, flush, type Clock } from '../../../machinery/clock.js';
import type { Pod } from '../../../api/core/index.js';
import type { LogOptions } from '../../../api/pod-streams.js';
import { createFakeRuntime } from '../../../daemon/cri/fake-runtime.js';
import { FakeAnnotations } from '../../../daemon/cri/fake-container.js';
import { KubeletLabels } from '../../../daemon/cri/types.js';
import { SimulatedNodeStreams } from './node-streams.js';

/** Timers fire 2 ms before now() reaches their due time (never sooner than 1 ms after being set). */
class EarlyClock implements Clock {
  readonly fake = new FakeClock();
  now(): number { return this.fake.now(); }
  after(ms: number, fn: () => void): () => void { return this.fake.after(Math.max(1, ms - 2), fn); }
}

const pod: Pod = {
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once', namespace: 'default', uid: 'uid-1' },
  spec: { nodeName: 'n1', restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo first; sleep 2; echo second'] }] },
};
const target = { namespace: 'default', pod: 'once', uid: 'uid-1', container: 'app' };
const options = (follow: boolean): LogOptions => ({ follow, previous: false, timestamps: false });

async function startOnce(clock: Clock) {
  const runtime = createFakeRuntime({ clock, startDelayMs: 0 });
  const sandboxConfig = { metadata: { name: 'once', namespace: 'default', uid: 'uid-1', attempt: 0 }, labels: { [KubeletLabels.podUid]: 'uid-1' } };
  await runtime.pullImage({ image: 'busybox:1.36' });
  const sandbox = await runtime.runPodSandbox(sandboxConfig);
  const id = await runtime.createContainer(sandbox, {
    metadata: { name: 'app', attempt: 0 }, image: { image: 'busybox:1.36' },
    labels: { [KubeletLabels.podUid]: 'uid-1', [KubeletLabels.containerName]: 'app' },
    annotations: { [FakeAnnotations.runMs]: '2000', [FakeAnnotations.exitCode]: '0' },
  }, sandboxConfig);
  await runtime.startContainer(id);
  return new SimulatedNodeStreams({ clock, runtime: () => runtime, pod: () => pod });
}

test('logs -f of a container that writes its last line as it exits: the exit timer firing early loses no line', async () => {
  const clock = new EarlyClock();
  const streams = await startOnce(clock);
  clock.fake.advance(500);
  let text = '';
  let ended = false;
  await streams.logs(target, options(true), { write: (t) => { text += t; }, end: () => { ended = true; } });
  assert.equal(text, 'first\n');
  // both the exit timer and the player's timer for "second" fire at 1998
  clock.fake.advance(1498);
  await flush();
  for (let i = 0; i < 5 && !ended; i++) {
    clock.fake.advance(1);
    await flush();
  }
  assert.deepEqual([text, ended], ['first\nsecond\n', true]);
  let after = '';
  await streams.logs(target, options(false), { write: (t) => { after += t; }, end: () => undefined });
  assert.equal(after, 'first\nsecond\n', 'read after the exit, the log holds the line too');
});
