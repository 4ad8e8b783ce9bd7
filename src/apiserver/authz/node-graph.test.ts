import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { systemContext } from '../registry/context.js';
import type { Attributes } from './attributes.js';

const node = (name: string) => ({ username: `system:node:${name}`, groups: ['system:nodes', 'system:authenticated'] });
const get = (nodeName: string, resource: string, name: string): Attributes =>
  ({ isResource: true, user: node(nodeName), verb: 'get', group: '', version: 'v1', resource, subresource: '', namespace: 'graph', name });
const pod = (name: string, secret: string, nodeName?: string): KObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'graph' },
  spec: { nodeName, containers: [{ name: 'c', image: 'x', env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: `cm-${name}`, key: 'k' } } }] }], volumes: [{ name: 's', secret: { secretName: secret } }] },
});

// The graph follows the store: each decision below comes right after the write it depends on.
describe('Node authorizer graph kept current from the store', () => {
  let env: TestControlPlane;
  const pods = () => env.plane.registry.table.lookup('', 'v1', 'pods')!;
  const decide = (a: Attributes) => env.plane.authorizer.authorize(a).decision;
  const remove = (name: string) => env.plane.registry.delete(pods(), 'graph', name, { gracePeriodSeconds: 0 }, systemContext());

  before(async () => {
    env = await startTestControlPlane();
    const ns = env.plane.registry.table.lookup('', 'v1', 'namespaces')!;
    await env.plane.registry.create(ns, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'graph' } }, systemContext());
    await env.plane.registry.create(pods(), 'graph', pod('a', 'shared', 'n1'), systemContext());
  });
  after(() => env.stop());

  test('pods created, bound and deleted after the first decision move the edges', async () => {
    assert.equal(decide(get('n1', 'secrets', 'shared')), 'allow');
    assert.equal(decide(get('n1', 'configmaps', 'cm-a')), 'allow');
    assert.equal(decide(get('n2', 'secrets', 'shared')), 'noOpinion');

    await env.plane.registry.create(pods(), 'graph', pod('b', 'shared'), systemContext());
    assert.equal(decide(get('n2', 'pods', 'b')), 'noOpinion', 'an unbound pod leads nowhere');
    await remove('b');
    await env.plane.registry.create(pods(), 'graph', pod('b', 'shared', 'n2'), systemContext());
    assert.equal(decide(get('n2', 'pods', 'b')), 'allow');
    assert.equal(decide(get('n2', 'secrets', 'shared')), 'allow');
    assert.equal(decide(get('n2', 'configmaps', 'cm-a')), 'noOpinion');

    await env.plane.registry.create(pods(), 'graph', pod('c', 'shared', 'n1'), systemContext());
    await remove('a');
    assert.equal(decide(get('n1', 'pods', 'a')), 'noOpinion');
    assert.equal(decide(get('n1', 'configmaps', 'cm-a')), 'noOpinion');
    assert.equal(decide(get('n1', 'secrets', 'shared')), 'allow', 'pod c still names it');
    await remove('c');
    assert.equal(decide(get('n1', 'secrets', 'shared')), 'noOpinion');
  });
});
