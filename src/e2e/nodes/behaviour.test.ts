/**
 * Node obligation K7 (docs/design/simulated-nodes.md §19): containers are scriptable: exit codes
 * after a time (from the command or annotations), readiness that flaps (behaviour rule or readiness
 * probe script), ExecSync over CRI, and pod IPs from the node's pod CIDR.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Nodes } from '../../api/resource-type.js';
import { CriError } from '../../daemon/cri/services.js';
import { containerNamed, podCondition } from '../../testing/kubelet-env.js';
import { busybox, server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Node, Pod } from '../../api/core/index.js';

let k: NodesEnv;
const node = 'kruise-node-0';

before(async () => {
  k = await startNodesEnv({
    count: 1,
    behaviour: {
      apiVersion: 'kruise-ts.io/v1alpha1', kind: 'NodeBehaviour',
      rules: [{ name: 'flappy', select: { podSelector: 'k7=flappy' }, set: { readinessFlaps: { readySeconds: 5, unreadySeconds: 3 } } }],
    },
  });
});

after(() => k.stop());

const terminated = (p: Pod) => containerNamed(p, 'app')?.state?.terminated;

/** Steps fake time for `ms` and returns each pod's Ready condition changes as `<status>@<seconds>`. */
async function readyTimelines(names: string[], ms: number, stepMs = 500): Promise<string[][]> {
  const seen: string[][] = names.map(() => []);
  for (let t = 0; t <= ms; t += stepMs) {
    for (const [i, name] of names.entries()) {
      const ready = podCondition(await k.getPod(name), 'Ready');
      if (!seen[i].at(-1)?.startsWith(`${ready}@`)) seen[i].push(`${ready}@${t / 1000}`);
    }
    await k.advance(stepMs, stepMs);
  }
  return seen;
}

test('K7: containers exit on script, readiness flaps, ExecSync answers over CRI, pod IPs come from the node\'s pod CIDR', async (t) => {
  await t.test('exit code after N seconds, from the command and from annotations', async () => {
    await k.createPod('k7-command', { nodeName: node, restartPolicy: 'Never', containers: [busybox('app', ['sh', '-c', 'sleep 3; exit 5'])] });
    await k.createPod('k7-annotated', { nodeName: node, restartPolicy: 'Never', containers: [server()] },
      { annotations: { 'kruise-ts.io/simulate-run-seconds': '2', 'kruise-ts.io/simulate-exit-code.app': '7' } });
    await k.podWhere('k7-command', (p) => !!containerNamed(p, 'app')?.state?.running, 'running');
    const took = await k.advanceUntil('k7-command', (p) => !!terminated(p), 'exited', 10_000);
    assert.ok(took >= 3000 && took < 3500, `exited after ${took} ms`);
    for (const [name, code] of [['k7-command', 5], ['k7-annotated', 7]] as const) {
      const pod = await k.getPod(name);
      assert.deepEqual([terminated(pod)!.exitCode, terminated(pod)!.reason, pod.status!.phase], [code, 'Error', 'Failed'], name);
    }
    const ran = terminated(await k.getPod('k7-annotated'))!;
    assert.equal(Date.parse(ran.finishedAt!) - Date.parse(ran.startedAt!), 2000);
  });

  await t.test('readiness flaps from a behaviour rule and from the readiness probe script', async () => {
    await k.createPod('k7-flappy', { nodeName: node, containers: [server()] }, { labels: { k7: 'flappy' } });
    await k.createPod('k7-probed', {
      nodeName: node, containers: [server('app', 'nginx:1.25', { readinessProbe: { exec: { command: ['check'] }, periodSeconds: 1 } })],
    }, { annotations: { 'kruise-ts.io/simulate-readiness': 'flap=4s/4s' } });
    await k.podWhere('k7-probed', (p) => !!containerNamed(p, 'app')?.state?.running, 'running');
    const [flappy, probed] = await readyTimelines(['k7-flappy', 'k7-probed'], 17_000);
    assert.deepEqual(flappy, ['True@0', 'False@5', 'True@8', 'False@13', 'True@16'], 'ready 5 s, unready 3 s');
    // probed every second: ready at the first success, unready after three failures in a row
    assert.deepEqual(probed, ['True@0', 'False@6', 'True@8', 'False@14', 'True@16'], 'probe succeeds 4 s, fails 4 s');
  });

  await t.test('ExecSync over CRI: the interpreter answers in a running container (cat /etc/hostname prints the pod name), errors for one that is gone', async () => {
    await k.createPod('k7-exec', { nodeName: node, restartPolicy: 'Never', containers: [server(), busybox('done', ['true'])] });
    const pod = await k.podWhere('k7-exec', (p) => !!containerNamed(p, 'app')?.state?.running && !!containerNamed(p, 'done')?.state?.terminated, 'app running, done exited');
    const [app, done] = ['app', 'done'].map((c) => containerNamed(pod, c)!.containerID!.replace('containerd://', ''));
    const answer = await k.cri().execSync!(app, ['sh', '-c', 'cat /etc/hostname'], 5);
    assert.deepEqual([answer.exitCode, new TextDecoder().decode(answer.stdout), answer.stderr.length], [0, 'k7-exec\n', 0]);
    const failure = (id: string) => k.cri().execSync!(id, ['true'], 5).then(() => undefined, (e: unknown) => e as CriError);
    const [gone, exited] = [await failure('0'.repeat(64)), await failure(done)];
    assert.deepEqual([gone?.code, gone?.message], ['NotFound', `failed to exec in container: failed to find container "${'0'.repeat(64)}" in store: not found`]);
    assert.deepEqual([exited?.code, exited?.message], ['Unknown', 'failed to exec in container: container is in CONTAINER_EXITED state']);
  });

  await t.test('pod IPs are distinct addresses of the node\'s podCIDR, as the sandbox reports them', async () => {
    const { spec } = await k.client.get<Node>(Nodes, undefined, node);
    const pods = await Promise.all(['k7-flappy', 'k7-probed', 'k7-exec'].map((n) => k.getPod(n)));
    const ips = pods.map((p) => p.status!.podIP!);
    assert.equal(new Set(ips).size, ips.length, ips.join(' '));
    for (const ip of ips) assert.ok(inCidr(ip, spec!.podCIDR!), `${ip} in ${spec!.podCIDR}`);
    const [sandbox] = await k.cri().listPodSandbox({ labelSelector: { 'io.kubernetes.pod.uid': pods[0].metadata.uid! } });
    assert.equal((await k.cri().podSandboxStatus(sandbox.id)).network?.ip, ips[0]);
  });
});

function inCidr(ip: string, cidr: string): boolean {
  const toInt = (a: string) => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toInt(ip) / size) === Math.floor(toInt(base) / size);
}
