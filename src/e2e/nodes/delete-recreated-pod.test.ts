/**
 * `kubectl delete pod` of a pod its controller recreates under the same name at once
 * (docs/design/simulated-nodes.md §22): each delete returns, and the pod comes back with a new uid.
 * Without the kubelet's cleanup time, kubectl could list the replacement before watching and wait
 * for a DELETED event that had already gone by, until its --timeout.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kubectlFor } from '../../testing/kubectl.js';
import { startUp, type UpProcess } from '../../testing/process.js';
import { eventually } from '../../testing/workload-env.js';

describe('kubectl delete of a pod that comes back under its name', () => {
  let up: UpProcess;
  let dir: string;
  let kubectl: ReturnType<typeof kubectlFor>;
  const run = async (args: string[], input?: string) => {
    const r = await kubectl(args, { minor: 32, ...(input && { input }) });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const uid = () => kubectl(['get', 'pod', 'web-0', '-o', 'jsonpath={.metadata.uid}:{.status.phase}'], { minor: 32 }).then((r) => r.stdout);

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-delete-recreated-'));
    up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '1', '--in-memory'], 60_000);
    kubectl = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache'));
  });
  after(async () => {
    up.child.kill('SIGTERM');
    await new Promise((r) => up.child.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  });

  test('every delete of an Advanced StatefulSet pod returns', async () => {
    await run(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 1, serviceName: 'web', selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      },
    }));
    for (let i = 0; i < 12; i++) {
      const before = await eventually('web-0 running', async () => { const u = await uid(); return u.endsWith(':Running') ? u : undefined; }, 60_000);
      // --timeout only bounds a hang; a delete that returns is the assertion
      const deleted = await kubectl(['delete', 'pod', 'web-0', '--timeout=30s'], { minor: 32 });
      assert.equal(deleted.code, 0, `delete ${i}: ${deleted.stderr}`);
      assert.equal(deleted.stdout.trim(), 'pod "web-0" deleted');
      await eventually('web-0 back with a new uid', async () => { const u = await uid(); return u && u.split(':')[0] !== before.split(':')[0] ? true : undefined; }, 60_000);
    }
  });
});
