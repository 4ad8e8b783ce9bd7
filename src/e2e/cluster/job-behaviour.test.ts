/**
 * Containers on `kruise up` do what their commands say (docs/design/simulated-nodes.md §9-§10), seen
 * through the real kubectl: Jobs complete on time or fail with their exit codes, busybox with no
 * command ends at once, a CronJob's Job completes, logs say the output is simulated, a bad
 * annotation is one container's CreateContainerConfigError, and a bad behaviour file stops
 * `kruise up` naming the rule.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../../testing/controller-env.js';
import { kubectlFor } from '../../testing/kubectl.js';
import { apiClientFromKubeconfig, startUp, stopChild, type UpProcess } from '../../testing/process.js';

const behaviourFile = `apiVersion: kruise-ts.io/v1alpha1
kind: NodeBehaviour
rules:
  - name: quick-failure
    select: { podSelector: behaviour=quick }
    set: { runSeconds: 0.5, exitCode: 4 }
`;

const failingJob = `apiVersion: batch/v1
kind: Job
metadata: { name: fails }
spec:
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: main, image: busybox, command: [sh, -c, "exit 3"] }]
`;

const configPods = `apiVersion: v1
kind: Pod
metadata: { name: bad, annotations: { kruise-ts.io/simulate-run-seconds: "-5" } }
spec: { containers: [{ name: app, image: nginx }] }
---
apiVersion: v1
kind: Pod
metadata: { name: good }
spec: { containers: [{ name: app, image: nginx }] }
`;

describe('what simulated containers do, through kubectl on kruise up', () => {
  let dir: string;
  let up: UpProcess;
  let k: ReturnType<typeof kubectlFor>;
  const json = async (args: string[]) => {
    const r = await k([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const ok = async (args: string[], input?: string) => {
    const r = await k(args, { input });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-behaviour-'));
    await writeFile(path.join(dir, 'behaviour.yaml'), behaviourFile);
    up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory', '--log-level', 'warn', '--node-behaviour', path.join(dir, 'behaviour.yaml')]);
    k = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache'));
    await ok(['wait', '--for=condition=Ready', 'nodes', '--all', '--timeout=30s']);
  });

  after(async () => {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  });

  test('kubectl create job -- sleep 2 completes after 2 s, not before', async () => {
    const started = Date.now();
    await ok(['create', 'job', 'j1', '--image=busybox', '--', 'sleep', '2']);
    await ok(['wait', '--for=condition=complete', 'job/j1', '--timeout=30s']);
    const took = Date.now() - started;
    assert.ok(took >= 2000 && took < 15_000, `completed ${took} ms after create`);
    const job = await json(['get', 'job', 'j1']);
    assert.ok(Date.parse(job.status.completionTime) - Date.parse(job.status.startTime) >= 2000, `${job.status.startTime} .. ${job.status.completionTime}`);
    const [pod] = (await json(['get', 'pods', '-l', 'job-name=j1'])).items;
    const ran = pod.status.containerStatuses[0].state.terminated;
    assert.deepEqual([pod.status.phase, ran.exitCode, ran.reason], ['Succeeded', 0, 'Completed']);
    assert.ok(Date.parse(ran.finishedAt) - Date.parse(ran.startedAt) >= 2000);
  });

  test('sh -c "exit 3" with backoffLimit 1 fails the Job after two pods exited 3', async () => {
    await ok(['apply', '-f', '-'], failingJob);
    await ok(['wait', '--for=condition=failed', 'job/fails', '--timeout=60s']);
    const job = await json(['get', 'job', 'fails']);
    const failed = job.status.conditions.find((c: { type: string }) => c.type === 'Failed');
    assert.deepEqual([failed.status, failed.reason], ['True', 'BackoffLimitExceeded']);
    const pods = (await json(['get', 'pods', '-l', 'job-name=fails'])).items;
    assert.equal(pods.length, 2);
    for (const pod of pods) {
      const status = pod.status.containerStatuses[0];
      assert.equal(pod.status.phase, 'Failed');
      assert.equal((status.state.terminated ?? status.lastState.terminated).exitCode, 3);
    }
  });

  test('a busybox Job with no command completes at once; a CronJob\'s Job completes', async () => {
    await ok(['create', 'job', 'once', '--image=busybox']);
    await ok(['create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 3 * * *', '--', 'sh', '-c', 'echo start; sleep 1']);
    await ok(['create', 'job', 'nightly-manual', '--from=cronjob/nightly']);
    await ok(['wait', '--for=condition=complete', 'job/once', 'job/nightly-manual', '--timeout=30s']);
    const manual = await json(['get', 'job', 'nightly-manual']);
    assert.equal(manual.metadata.ownerReferences[0].kind, 'CronJob');
  });

  test('a behaviour file rule sets the exit code', async () => {
    await ok(['run', 'quick', '--image=nginx', '--restart=Never', '--labels=behaviour=quick']);
    const pod = await eventually('quick failed', async () => { const p = await json(['get', 'pod', 'quick']); return p.status.phase === 'Failed' && p; });
    assert.equal(pod.status.containerStatuses[0].state.terminated.exitCode, 4);
  });

  test('kubectl logs prints what the container wrote (nothing for sleep and a bare busybox); an unknown container is 400 as kube answers', async () => {
    const [pod] = (await json(['get', 'pods', '-l', 'job-name=j1'])).items;
    const name = pod.metadata.name;
    assert.equal(await ok(['logs', name]), ''); // docs/design/simulated-nodes.md §20
    assert.equal(await ok(['logs', 'job/once', '-c', 'once']), '');
    const api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
    const wrong = await api.request('GET', `/api/v1/namespaces/default/pods/${name}/log?container=nope`);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.message, `container nope is not valid for pod ${name}`);
  });

  test('an annotation with a negative duration is CreateContainerConfigError naming it; the other pod runs', async () => {
    await ok(['apply', '-f', '-'], configPods);
    await ok(['wait', '--for=condition=Ready', 'pod/good', '--timeout=30s']);
    const bad = await eventually('bad pod waiting', async () => {
      const p = await json(['get', 'pod', 'bad']);
      return p.status.containerStatuses?.[0].state.waiting?.reason === 'CreateContainerConfigError' && p;
    });
    assert.match(bad.status.containerStatuses[0].state.waiting.message, /kruise-ts\.io\/simulate-run-seconds: "-5"/);
    assert.equal(bad.status.phase, 'Pending');
    assert.equal(bad.spec.nodeName, (await json(['get', 'pod', 'good'])).spec.nodeName);
    assert.match(await ok(['get', 'pod', 'bad']), /bad\s+0\/1\s+CreateContainerConfigError/);
  });
});

test('kruise up with an invalid behaviour file exits non-zero naming the rule and field', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-bad-behaviour-'));
  try {
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'apiVersion: kruise-ts.io/v1alpha1\nkind: NodeBehaviour\nrules:\n  - name: fine\n    set: {}\n  - name: slow-batch\n    set: { runSeconds: -5 }\n');
    await assert.rejects(startUp(['--port', '0', '--data-dir', dir, '--in-memory', '--node-behaviour', file]),
      /exited 1:[\s\S]*rules\[1\] \(name "slow-batch"\): set\.runSeconds: must be a non-negative number/);
    await writeFile(file, 'rules: [\n');
    await assert.rejects(startUp(['--port', '0', '--data-dir', dir, '--in-memory', '--node-behaviour', file]), /exited 1:[\s\S]*not valid YAML/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
