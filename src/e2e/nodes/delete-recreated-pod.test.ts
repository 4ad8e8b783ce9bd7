/**
 * `kubectl delete pod` of a pod its controller recreates under the same name at once
 * (docs/design/simulated-nodes.md §22): each delete returns, and the pod comes back with a new uid.
 * Without the kubelet's cleanup time, kubectl could list the replacement before watching and wait
 * for a DELETED event that had already gone by, until its --timeout.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { upForSuite } from '../../testing/up-suite.js';
import { eventually } from '../../testing/workload-env.js';

describe('kubectl delete of a pod that comes back under its name', () => {
  const { kubectl, run } = upForSuite('delete-recreated');
  const uid = () => kubectl(['get', 'pod', 'web-0', '-o', 'jsonpath={.metadata.uid}:{.status.phase}'], { minor: 32 }).then((r) => r.stdout);

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
