/**
 * exec, attach, logs and port-forward through the real kubectl 1.32 (WebSocket, port-forward as SPDY
 * tunneled in a WebSocket) and kubectl 1.27 (SPDY/3.1) against `kruise up` (docs/design/streaming.md).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { kubectlBinary, kubectlFor, type KubectlOptions, type KubectlResult } from '../../testing/kubectl.js';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';

const pods = `
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - {name: app, image: busybox:1.36, command: [sh, -c, 'echo start; while true; do echo tick; sleep 1; done'], env: [{name: GREETING, value: hello}]}
---
apiVersion: v1
kind: Pod
metadata: {name: srv}
spec:
  containers:
  - {name: app, image: nginx:1.25, ports: [{containerPort: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: once}
spec:
  restartPolicy: Never
  containers:
  - {name: app, image: busybox:1.36, command: [sh, -c, 'echo first; sleep 2; echo second']}
---
apiVersion: v1
kind: Pod
metadata: {name: crashy}
spec:
  containers:
  - {name: app, image: busybox:1.36, command: [sh, -c, 'echo attempt; exit 1']}
`;

const rbac = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: exec-get-only}
rules:
- {apiGroups: [''], resources: [pods], verbs: [get, list]}
- {apiGroups: [''], resources: [pods/exec], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: exec-get-only}
subjects: [{kind: User, name: jane}]
`;

describe('streaming subresources through kubectl on kruise up', () => {
  let dir: string;
  let up: UpProcess;
  let kubectl: (args: string[], options?: KubectlOptions) => Promise<KubectlResult>;
  const ok = async (args: string[], options?: KubectlOptions) => {
    const r = await kubectl(args, options);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-streaming-'));
    up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory', '--log-level', 'warn'], 60_000);
    kubectl = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'kube-cache'));
    await ok(['apply', '-f', '-'], { input: pods + '---' + rbac });
    await ok(['wait', '--for=condition=Ready', 'pod/web', 'pod/srv', '--timeout=60s']);
  });
  after(async () => {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  });

  for (const minor of [32, 27]) {
    test(`exec with kubectl 1.${minor}: the interpreter answers, exit codes come back`, async () => {
      assert.equal(await ok(['exec', 'web', '--', 'cat', '/etc/hostname'], { minor }), 'web\n');
      assert.equal(await ok(['exec', 'web', '--', 'sh', '-c', 'echo "$GREETING from $HOSTNAME"; printenv GREETING'], { minor }), 'hello from web\nhello\n');
      assert.match(await ok(['exec', 'web', '--', 'env'], { minor }), /^PATH=.*\nHOSTNAME=web\nGREETING=hello\nHOME=\/root\n$/);
      const failed = await kubectl(['exec', 'web', '--', 'sh', '-c', 'echo partial; exit 3'], { minor });
      assert.deepEqual([failed.code, failed.stdout, failed.stderr], [3, 'partial\n', 'command terminated with exit code 3\n']);
      const shell = await kubectl(['exec', '-i', 'web', '--', 'sh'], { minor, input: 'echo typed\nhostname\nexit 4\n' });
      assert.deepEqual([shell.code, shell.stdout], [4, 'typed\nweb\n']);
    });
  }

  test('exec needs create on pods/exec: get alone is forbidden', async () => {
    const r = await kubectl(['exec', 'web', '--as=jane', '--', 'true']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /pods "web" is forbidden: User "jane" cannot create resource "pods\/exec" in API group "" in the namespace "default"/);
  });

  test('logs: what the container wrote, --tail, --timestamps, -f until it exits, --previous', async () => {
    const lines = (await ok(['logs', 'web'])).split('\n');
    assert.deepEqual(lines.slice(0, 2), ['start', 'tick']);
    assert.equal(await ok(['logs', 'web', '--tail=1']), 'tick\n');
    assert.match(await ok(['logs', 'web', '--tail=1', '--timestamps']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z tick\n$/);
    assert.equal(await ok(['logs', '-f', 'once']), 'first\nsecond\n');
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].restartCount}=1', 'pod/crashy', '--timeout=60s']);
    assert.equal(await ok(['logs', 'crashy', '--previous']), 'attempt\n');
  });

  test('attach: the container\'s output from now on', async () => {
    await ok(['run', 'later', '--image=busybox:1.36', '--restart=Never', '--', 'sh', '-c', 'sleep 4; echo one; sleep 1; echo two']);
    await ok(['wait', '--for=condition=Ready', 'pod/later', '--timeout=60s']);
    const out = await ok(['attach', 'later']);
    assert.match(out, /two\n$/);
  });

  for (const minor of [32, 27]) {
    test(`port-forward with kubectl 1.${minor}: the simulated listener answers, a closed port is refused`, async () => {
      const child = spawn(kubectlBinary(minor), ['--kubeconfig', path.join(dir, 'kubeconfig'), 'port-forward', 'pod/srv', ':80', ':81']);
      try {
        const ports = await new Promise<number[]>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            const found = [...out.matchAll(/Forwarding from 127\.0\.0\.1:(\d+) -> (80|81)/g)].map((m) => Number(m[1]));
            if (found.length === 2) resolve(found);
          });
          child.on('exit', (code) => reject(new Error(`port-forward exited ${code}`)));
        });
        const body = await new Promise<string>((resolve, reject) => {
          http.get({ host: '127.0.0.1', port: ports[0], path: '/' }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => { text += c.toString(); });
            res.on('end', () => resolve(`${res.statusCode} ${text}`));
          }).on('error', reject);
        });
        assert.equal(body, '200 kruise-ts simulated listener: pod default/srv port 80\n');
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
        await new Promise<void>((resolve) => {
          http.get({ host: '127.0.0.1', port: ports[1], path: '/' }, () => resolve()).on('error', () => resolve());
        });
        await new Promise<void>((resolve) => { const check = () => (/connection refused/.test(stderr) ? resolve() : setTimeout(check, 50)); check(); });
        assert.match(stderr, /error forwarding port 81 to pod [0-9a-f]+, uid : .*dial tcp4 127\.0\.0\.1:81: connect: connection refused/);
      } finally {
        child.kill();
      }
    });
  }
});
