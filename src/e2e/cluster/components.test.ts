/**
 * The scheduler and simulated nodes as separate processes pointed at another API server by kubeconfig,
 * as they would run against a real cluster (KWOK-style).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { apiClientFromKubeconfig, startComponentProcess as startComponent } from '../../testing/process.js';

describe('kruise scheduler and kruise nodes against another API server', () => {
  let env: TestControlPlane;
  const children: ChildProcess[] = [];
  before(async () => { env = await startTestControlPlane(); });
  after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await env.stop();
  });

  test('a pod gets scheduled onto a simulated node and runs', async () => {
    children.push(await startComponent(['nodes', '--kubeconfig', env.kubeconfig, '--count', '2', '--name-prefix', 'remote-'], /nodes ready/));
    children.push(await startComponent(['scheduler', '--kubeconfig', env.kubeconfig], /scheduler ready/));
    const api = await apiClientFromKubeconfig(env.kubeconfig);
    const created = await api.request('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'hello' }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } });
    assert.equal(created.status, 201, created.text);
    let pod: any;  
    for (let i = 0; i < 150; i++) {
      pod = (await api.request('GET', '/api/v1/namespaces/default/pods/hello')).body;
      if (pod.status?.phase === 'Running' && pod.status.conditions?.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(pod.spec.nodeName, /^remote-/);
    assert.equal(pod.status.phase, 'Running');
    assert.ok(pod.status.podIP);
    assert.equal(pod.status.containerStatuses[0].restartCount, 0);
    const nodes = (await api.request('GET', '/api/v1/nodes')).body.items;
    assert.equal(nodes.length, 2);
    assert.ok(nodes.every((n: { status: { conditions: { type: string; status: string }[] } }) => n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True')));
  });
});
