/**
 * `kruise up` stopped (SIGTERM, then kill -9) and started again in the middle of a CloneSet's
 * in-place rollout, six times: the simulated nodes keep their containers as real nodes do across
 * a kubelet restart, so ready pods never drop below replicas - maxUnavailable, every pod keeps its
 * UID and ends restarted exactly once, and a CloneSet left alone keeps its very containers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiClientFromKubeconfig, startUp, stopChild, type ApiClient, type UpProcess } from '../../testing/process.js';
import { kubectlFor } from '../../testing/kubectl.js';
import type { Pod } from '../../api/core/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cloneSet = (name: string, replicas: number, image: string) => `
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: { name: ${name}, namespace: default }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec: { containers: [{ name: app, image: "${image}" }] }
  updateStrategy: { type: InPlaceIfPossible, maxUnavailable: 20% }
`;
const isReady = (p: Pod) => !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

describe('kruise up restarted during an in-place rollout', () => {
  let dir: string;
  let up: UpProcess | undefined;
  let api: ApiClient;
  const args = () => ['--port', '0', '--data-dir', dir, '--nodes', '3', '--start-delay-ms', '2000'];

  const pods = async (app: string): Promise<Pod[]> => {
    const r = await api.request('GET', `/api/v1/namespaces/default/pods?labelSelector=app%3D${app}`);
    if (r.status !== 200) throw new Error(`list pods: ${r.status} ${r.text}`);
    return r.body.items as Pod[];
  };
  const start = async () => {
    up = await startUp(args(), 60_000);
    api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  };
  const stop = async (signal: NodeJS.Signals) => {
    await stopChild(up!.child, signal);
    up = undefined;
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kruise-up-restart-'));
    await start();
  });
  after(async () => {
    if (up) await stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  test('ready pods stay within the budget; UIDs kept; each pod restarted exactly once', { timeout: 240_000 }, async () => {
    const kubectl = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'kubectl-cache'));
    const applied = await kubectl(['apply', '-f', '-'], { input: cloneSet('web', 20, 'nginx:1.25') + '---' + cloneSet('steady', 3, 'redis:7') });
    assert.equal(applied.code, 0, applied.stderr);
    await until('20 + 3 pods ready', async () => (await pods('web')).filter(isReady).length === 20 && (await pods('steady')).filter(isReady).length === 3);
    const uids = new Map((await pods('web')).map((p) => [p.metadata.name!, p.metadata.uid!]));
    const steady = new Map((await pods('steady')).map((p) => [p.metadata.uid!, p.status!.containerStatuses![0]!.containerID]));

    let minReady = Infinity;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        if (up) {
          const ready = await pods('web').then((ps) => ps.filter(isReady).length, () => undefined);
          if (ready !== undefined) minReady = Math.min(minReady, ready);
        }
        await sleep(200);
      }
    })();
    const patched = await kubectl(['patch', 'clone', 'web', '--type', 'merge', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.26"}]}}}}']);
    assert.equal(patched.code, 0, patched.stderr);
    const updatedAtStop: number[] = [];
    for (const signal of ['SIGTERM', 'SIGTERM', 'SIGTERM', 'SIGKILL', 'SIGKILL', 'SIGKILL'] as const) {
      await sleep(1200);
      updatedAtStop.push((await pods('web')).filter((p) => p.status?.containerStatuses?.[0]?.image.endsWith('nginx:1.26')).length);
      await stop(signal);
      await start();
    }
    await until('rollout done', async () => {
      const ps = await pods('web');
      return ps.length === 20 && ps.every((p) => isReady(p) && p.status!.containerStatuses![0]!.image.endsWith('nginx:1.26'));
    });
    sampling = false;
    await sampler;

    assert.ok(updatedAtStop.some((n) => n > 0 && n < 20), `stopped mid-rollout (updated pods at each stop: ${updatedAtStop})`);
    assert.ok(minReady >= 16, `ready pods never below replicas - maxUnavailable = 16 (lowest seen: ${minReady})`);
    const final = await pods('web');
    assert.deepEqual(new Map(final.map((p) => [p.metadata.name!, p.metadata.uid!])), uids, 'same pods, same UIDs');
    for (const p of final) assert.equal(p.status!.containerStatuses![0]!.restartCount, 1, `${p.metadata.name} restarted exactly once`);
    const left = await pods('steady');
    assert.deepEqual(new Map(left.map((p) => [p.metadata.uid!, p.status!.containerStatuses![0]!.containerID])), steady, 'untouched pods keep their containers');
    assert.ok(left.every((p) => p.status!.containerStatuses![0]!.restartCount === 0));
  });
});
