/**
 * The OpenKruise manual's PodProbeMarker example through kubectl 1.32 against `kruise up`
 * (docs/design/pod-probes.md §8): the marker as the manual writes it, two game-server pods on the
 * simulated node, one whose idle script fails (`kruise-ts.io/simulate-exec`); the node's
 * kruise-daemon probes both through the node's CRI socket, and the pods show the manual's
 * condition, labels, annotations and events. Deleting the marker clears the NodePodProbe.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kubectlFor } from '../../testing/kubectl.js';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';

type Obj = Record<string, any>; // any: kubectl's JSON output

const manualExample = `apiVersion: apps.kruise.io/v1alpha1
kind: PodProbeMarker
metadata:
  name: game-server-probe
  namespace: ns
spec:
  selector:
    matchLabels:
      app: game-server
  probes:
  - name: Idle
    containerName: game-server
    probe:
      exec:
        command:
        - /home/game/idle.sh
      initialDelaySeconds: 10
      timeoutSeconds: 3
      periodSeconds: 10
      successThreshold: 1
      failureThreshold: 3
    markerPolicy:
    - state: Succeeded
      labels:
        gameserver-idle: 'true'
      annotations:
        controller.kubernetes.io/pod-deletion-cost: '-10'
    - state: Failed
      labels:
        gameserver-idle: 'false'
      annotations:
        controller.kubernetes.io/pod-deletion-cost: '10'
    podConditionType: game.io/idle
`;

const gameServer = (name: string, annotations: Record<string, string> = {}) => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', labels: { app: 'game-server' }, annotations },
  spec: { containers: [{ name: 'game-server', image: 'nginx:1.25' }] },
});

let dir: string;
let up: UpProcess;
let k: ReturnType<typeof kubectlFor>;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ppm-'));
  up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory'], 60_000);
  k = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache'));
});
after(async () => {
  if (up) await stopChild(up.child);
  await rm(dir, { recursive: true, force: true });
});

async function ok(args: string[], input?: string): Promise<string> {
  const r = await k(args, { input });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Polls `check` every 500 ms (kubectl runs are not free) until it returns a value. */
async function poll<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const pod = async (name: string): Promise<Obj> => JSON.parse(await ok(['get', 'pod', name, '-n', 'ns', '-o', 'json'])) as Obj;
const marks = (p: Obj) => [p.metadata.labels?.['gameserver-idle'], p.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'],
  p.status?.conditions?.find((c: Obj) => c.type === 'game.io/idle')?.status];

test('the manual\'s PodProbeMarker marks an idle and a busy game server; deleting it clears the NodePodProbe', async () => {
  await ok(['create', 'namespace', 'ns']);
  await ok(['apply', '-f', '-'], manualExample);
  await ok(['apply', '-f', '-'], gameServer('game-server-idle'));
  await ok(['apply', '-f', '-'], gameServer('game-server-busy', { 'kruise-ts.io/simulate-exec.game-server': 'fail' }));
  // 10 s initial delay, then one success, or three failures 10 s apart
  const [idle, busy] = await poll('both marked', async () => {
    const both = [marks(await pod('game-server-idle')), marks(await pod('game-server-busy'))];
    return both.every((m) => m[0] !== undefined) ? both : undefined;
  }, 90_000);
  assert.deepEqual(idle, ['true', '-10', 'True']);
  assert.deepEqual(busy, ['false', '10', 'False']);

  const node = (JSON.parse(await ok(['get', 'nodes', '-o', 'json'])) as Obj).items[0].metadata.name as string;
  const npp = JSON.parse(await ok(['get', 'nodepodprobe', node, '-o', 'json'])) as Obj;
  assert.deepEqual(npp.spec.podProbes.map((e: Obj) => [e.name, e.probes.map((p: Obj) => p.name)]).sort(),
    [['game-server-busy', ['game-server-probe#Idle']], ['game-server-idle', ['game-server-probe#Idle']]]);
  const described = await ok(['describe', 'pod', 'game-server-idle', '-n', 'ns']);
  assert.match(described, /KruiseProbeSucceeded\s+\S+\s+kruise-daemon-podprobe/);

  await ok(['delete', 'podprobemarker', 'game-server-probe', '-n', 'ns', '--timeout=30s']);
  const cleared = JSON.parse(await ok(['get', 'nodepodprobe', node, '-o', 'json'])) as Obj;
  assert.deepEqual(cleared.spec.podProbes ?? [], []);
});
