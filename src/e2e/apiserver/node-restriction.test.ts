/**
 * Kubelet identities in `kruise up` under the Node authorizer's graph and NodeRestriction
 * (docs/design/authorization.md §17): a node reads a Secret only once a pod bound to it names it,
 * keeps to its own Node and pods, and the simulated kubelets still run pods that need Secrets.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { upForSuite } from '../../testing/up-suite.js';
import { eventually } from '../../testing/workload-env.js';

describe('NodeRestriction and the Node graph in kruise up', () => {
  const { kubectl, run } = upForSuite('node-restriction', ['--nodes', '2', '--in-memory']);
  const asNode = (node: string, ...args: string[]) => kubectl([...args, '--as', `system:node:${node}`, '--as-group', 'system:nodes'], { minor: 32 });

  test('a Secret is readable by the node whose pod uses it, and only by that node', async () => {
    await run(['create', 'secret', 'generic', 'db', '--from-literal=password=s3cret']);
    const before = await asNode('kruise-node-0', 'get', 'secret', 'db');
    assert.equal(before.stderr.trim(), 'Error from server (Forbidden): secrets "db" is forbidden: User "system:node:kruise-node-0" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'kruise-node-0\' and this object');
    await eventually('the default ServiceAccount', () => run(['get', 'sa', 'default', '-o', 'name']).catch(() => undefined), 30_000);
    await run(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app' },
      spec: { nodeName: 'kruise-node-1', containers: [{ name: 'c', image: 'busybox:1', command: ['sleep', '3600'], env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }] },
    }));
    // the simulated kubelets read the Secret through their shared cache and start the container
    await run(['wait', '--for=condition=Ready', 'pod/app', '--timeout=60s']);
    assert.equal((await run(['exec', 'app', '--', 'printenv', 'P'])).trim(), 's3cret');
    assert.equal((await asNode('kruise-node-1', 'get', 'secret', 'db', '-o', 'name')).stdout.trim(), 'secret/db');
    assert.equal((await asNode('kruise-node-0', 'get', 'secret', 'db')).code, 1);
  });

  test('a node keeps to its own Node object and the pods bound to it', async () => {
    const label = await asNode('kruise-node-0', 'label', 'node', 'kruise-node-0', 'node-restriction.kubernetes.io/pool=a');
    assert.equal(label.stderr.trim(), 'Error from server (Forbidden): nodes "kruise-node-0" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool');
    assert.equal((await asNode('kruise-node-0', 'label', 'node', 'kruise-node-0', 'pool=a')).code, 0);
    const other = await asNode('kruise-node-0', 'get', 'node', 'kruise-node-1');
    assert.match(other.stderr, /node 'kruise-node-0' cannot read 'kruise-node-1', only its own Node object/);
    await run(['run', 'plain', '--image=busybox:1', '--overrides', '{"spec":{"nodeName":"kruise-node-1"}}', '--', 'sleep', '3600']);
    const del = await asNode('kruise-node-0', 'delete', 'pod', 'plain');
    assert.equal(del.stderr.trim(), 'Error from server (Forbidden): pods "plain" is forbidden: node "kruise-node-0" can only delete pods with spec.nodeName set to itself');
    const create = await asNode('kruise-node-0', 'run', 'own', '--image=busybox:1');
    assert.equal(create.stderr.trim(), 'Error from server (Forbidden): pods "own" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "kruise-node-0" can only create mirror pods');
  });
});
