import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors.js';
import { builtinPatchSchema } from './builtin-patch-meta.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const deploymentSchema = builtinPatchSchema('apps', 'Deployment');
// any: test fixtures are read by deep paths and asserted on, so typing them adds nothing.
type Json = Record<string, any>;

/** A Deployment as the server stores it after a first `kubectl apply` (defaults filled in). */
const liveDeployment = (): Json => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'd', namespace: 'default', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"old":true}\n' }, finalizers: ['a', 'b'] },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'd' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'd' } },
      spec: {
        containers: [
          { name: 'a', image: 'busybox:1', env: [{ name: 'X', value: '1' }], ports: [{ containerPort: 80, protocol: 'TCP' }], terminationMessagePath: '/dev/termination-log' },
          { name: 'b', image: 'busybox:1', command: ['sh', '-c', 'sleep 1'], imagePullPolicy: 'IfNotPresent' },
        ],
        tolerations: [{ key: 'k', operator: 'Exists' }],
        volumes: [{ name: 'v', emptyDir: {} }],
        restartPolicy: 'Always',
      },
    },
  },
  status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'True' }] },
});

/** Applies and checks that neither input was modified and no directive survived. */
function apply(doc: Json, patch: unknown, schema = deploymentSchema): Json {
  const before = [JSON.stringify(doc), JSON.stringify(patch)];
  const out = applyStrategicMergePatch(doc, patch, schema) as Json;
  assert.deepEqual([JSON.stringify(doc), JSON.stringify(patch)], before, 'inputs not mutated');
  assert.doesNotMatch(JSON.stringify(out), /"\$(patch|retainKeys|setElementOrder\/|deleteFromPrimitiveList\/)/, 'no directive left');
  return out;
}

const containers = (d: Json): Json[] => d.spec.template.spec.containers;

describe('kubectl apply bodies (PA3)', () => {
  test('re-apply of a Deployment: $setElementOrder on containers and env', () => {
    const body = JSON.parse('{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],"containers":[{"$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X","value":"2"}],"name":"a"},{"image":"busybox:2","name":"b"}]}}}}');
    const out = apply(liveDeployment(), body);
    const [a, b] = containers(out);
    assert.deepEqual(a, { ...containers(liveDeployment())[0], env: [{ name: 'X', value: '2' }] });
    assert.deepEqual(b, { ...containers(liveDeployment())[1], image: 'busybox:2' });
    assert.equal(containers(out).length, 2);
    assert.deepEqual(out.spec.template.spec.tolerations, [{ key: 'k', operator: 'Exists' }]);
    assert.deepEqual(out.status, liveDeployment().status);
  });

  test('re-apply with the last-applied annotation replaced', () => {
    const out = apply(liveDeployment(), { metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}\n' } }, spec: { replicas: 3 } });
    assert.equal(out.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], '{"new":true}\n');
    assert.equal(out.spec.replicas, 3);
    assert.deepEqual(out.metadata.finalizers, ['a', 'b']);
  });

  test('kubectl rollout restart adds a template annotation and leaves containers alone', () => {
    const out = apply(liveDeployment(), { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-01-01T00:00:00Z' } } } } });
    assert.deepEqual(out.spec.template.metadata, { labels: { app: 'd' }, annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-01-01T00:00:00Z' } });
    assert.deepEqual(containers(out), containers(liveDeployment()));
  });

  test('removing an env var: $patch delete item under $setElementOrder', () => {
    const live = liveDeployment();
    containers(live)[0].env.push({ name: 'Y', value: 'y' });
    const out = apply(live, { spec: { template: { spec: { containers: [{ name: 'a', '$setElementOrder/env': [{ name: 'X' }], env: [{ $patch: 'delete', name: 'Y' }] }] } } } });
    assert.deepEqual(containers(out)[0].env, [{ name: 'X', value: '1' }]);
  });

  test('adding a container in the middle follows $setElementOrder', () => {
    const out = apply(liveDeployment(), { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'c' }, { name: 'b' }], containers: [{ name: 'c', image: 'nginx' }] } } } });
    assert.deepEqual(containers(out).map((c) => c.name), ['a', 'c', 'b']);
    assert.deepEqual(containers(out)[1], { name: 'c', image: 'nginx' });
  });

  test('Deployment strategy change with $retainKeys drops rollingUpdate', () => {
    const out = apply(liveDeployment(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } });
    assert.deepEqual(out.spec.strategy, { type: 'Recreate' });
  });

  test('volume source switch with $retainKeys on the item', () => {
    const out = apply(liveDeployment(), { spec: { template: { spec: { volumes: [{ $retainKeys: ['configMap', 'name'], name: 'v', configMap: { name: 'cm' } }] } } } });
    assert.deepEqual(out.spec.template.spec.volumes, [{ name: 'v', configMap: { name: 'cm' } }]);
  });
});

describe('merge strategies', () => {
  const cases: Array<[string, unknown, (d: Json) => unknown, unknown]> = [
    ['null deletes a map key', { metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': null } } }, (d) => d.metadata.annotations, {}],
    ['null deletes a nested struct', { spec: { strategy: { rollingUpdate: null } } }, (d) => d.spec.strategy, { type: 'RollingUpdate' }],
    ['null on a missing key is dropped', { spec: { paused: null } }, (d) => 'paused' in d.spec, false],
    ['new item of a keyed list goes first without an order', { spec: { template: { spec: { containers: [{ name: 'z', image: 'i' }] } } } }, (d) => containers(d).map((c) => c.name), ['z', 'a', 'b']],
    ['tolerations are atomic', { spec: { template: { spec: { tolerations: [{ key: 'other' }] } } } }, (d) => d.spec.template.spec.tolerations, [{ key: 'other' }]],
    ['command is atomic', { spec: { template: { spec: { containers: [{ name: 'b', command: ['true'] }] } } } }, (d) => containers(d)[1].command, ['true']],
    ['container ports merge by containerPort', { spec: { template: { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }] } } } }, (d) => containers(d)[0].ports, [{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }]],
    ['finalizers merge as a set, new first', { metadata: { finalizers: ['c', 'a'] } }, (d) => d.metadata.finalizers, ['c', 'a', 'b']],
    ['$deleteFromPrimitiveList', { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, (d) => d.metadata.finalizers, ['b']],
    ['$setElementOrder on a set', { metadata: { '$setElementOrder/finalizers': ['b', 'c', 'a'], finalizers: ['c'] } }, (d) => d.metadata.finalizers, ['b', 'c', 'a']],
    ['$setElementOrder alone reorders', { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } } } }, (d) => containers(d).map((c) => c.name), ['b', 'a']],
    ['conditions merge by type', { status: { conditions: [{ type: 'Progressing', status: 'False' }] } }, (d) => d.status.conditions, [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'False' }]],
    ['$patch replace on a map', { spec: { selector: { $patch: 'replace', matchLabels: { x: '1' } } } }, (d) => d.spec.selector, { matchLabels: { x: '1' } }],
    ['$patch delete on a map', { spec: { selector: { $patch: 'delete' } } }, (d) => d.spec.selector, {}],
    ['$patch replace item replaces the list', { spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'x' }] } } } }, (d) => containers(d), [{ name: 'only', image: 'x' }]],
    ['$patch delete item', { spec: { template: { spec: { containers: [{ $patch: 'delete', name: 'a' }] } } } }, (d) => containers(d).map((c) => c.name), ['b']],
    ['directives inside a new subtree are applied', { spec: { template: { spec: { initContainers: [{ name: 'i', env: [{ name: 'E', value: null }], '$setElementOrder/env': [{ name: 'E' }] }] } } } }, (d) => d.spec.template.spec.initContainers, [{ name: 'i', env: [{ name: 'E' }] }]],
    ['a scalar replaces a map', { spec: { strategy: 'x' } }, (d) => d.spec.strategy, 'x'],
    ['other $-keys are plain fields', { spec: { $ref: '#/x' } }, (d) => d.spec.$ref, '#/x'],
  ];
  for (const [name, patch, pick, want] of cases) {
    test(name, () => assert.deepEqual(pick(apply(liveDeployment(), patch)), want));
  }
});

describe('other built-in kinds', () => {
  test('Service ports merge by port; Node addresses by type; ownerReferences by uid', () => {
    const svc = apply({ spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } }, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, builtinPatchSchema('', 'Service'));
    assert.deepEqual(svc.spec.ports, [{ port: 80, targetPort: 9090 }, { port: 443 }]);
    const node = apply({ status: { addresses: [{ type: 'InternalIP', address: '1' }, { type: 'Hostname', address: 'n' }] } }, { status: { addresses: [{ type: 'InternalIP', address: '2' }] } }, builtinPatchSchema('', 'Node'));
    assert.deepEqual(node.status.addresses, [{ type: 'InternalIP', address: '2' }, { type: 'Hostname', address: 'n' }]);
    const cm = apply({ metadata: { ownerReferences: [{ uid: '1', name: 'a' }] }, data: { a: '1' } }, { metadata: { ownerReferences: [{ uid: '2', name: 'b' }] }, data: { b: '2' } }, builtinPatchSchema('', 'ConfigMap'));
    assert.deepEqual(cm.metadata.ownerReferences, [{ uid: '2', name: 'b' }, { uid: '1', name: 'a' }]);
    assert.deepEqual(cm.data, { a: '1', b: '2' });
  });

  test('CronJob pod template inside jobTemplate merges containers by name', () => {
    const live = { spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } } } } } };
    const out = apply(live, { spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'b', image: '2' }] } } } } } }, builtinPatchSchema('batch', 'CronJob'));
    assert.deepEqual(out.spec.jobTemplate.spec.template.spec.containers, [{ name: 'a', image: '1' }, { name: 'b', image: '2' }]);
  });

  test('Pod status conditions and podIPs', () => {
    const out = apply({ status: { conditions: [{ type: 'Ready', status: 'False' }], podIPs: [{ ip: '10.0.0.1' }] } }, { status: { conditions: [{ type: 'Ready', status: 'True' }], podIPs: [{ ip: '10.0.0.2' }] } }, builtinPatchSchema('', 'Pod'));
    assert.deepEqual(out.status.conditions, [{ type: 'Ready', status: 'True' }]);
    assert.deepEqual(out.status.podIPs, [{ ip: '10.0.0.2' }, { ip: '10.0.0.1' }]);
  });
});

describe('hostile keys', () => {
  test('a __proto__ key is data, never the prototype', () => {
    const patch = JSON.parse('{"data":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"},"metadata":{"__proto__":{"polluted":"yes"}}}');
    const out = apply({ metadata: { name: 'cm' }, data: { a: '1' } }, patch, builtinPatchSchema('', 'ConfigMap'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(JSON.stringify(out.data), '{"a":"1","__proto__":{"polluted":"yes"}}');
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
  });
});

describe('bad patches are 400', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['not an object', [{ op: 'add' }], /cannot unmarshal array/],
    ['unknown $patch on a map', { spec: { selector: { $patch: 'foo' } } }, /unknown patch type: foo/],
    ['$patch merge on a map', { spec: { selector: { $patch: 'merge' } } }, /unknown patch type: merge/],
    ['unknown $patch on a list item', { spec: { template: { spec: { containers: [{ $patch: 'bar', name: 'a' }] } } } }, /unknown patch type: bar/],
    ['$patch merge on a list item', { spec: { template: { spec: { containers: [{ $patch: 'merge', name: 'a' }] } } } }, /merging lists cannot yet be specified/],
    ['delete item without merge key', { spec: { template: { spec: { containers: [{ $patch: 'delete' }] } } } }, /no merge key/],
    ['item without merge key', { spec: { template: { spec: { containers: [{ image: 'x' }] } } } }, /does not contain declared merge key: name/],
    ['$retainKeys not a list', { spec: { strategy: { $retainKeys: 'type' } } }, /invalid patch format of retainKeys/],
    ['field outside $retainKeys', { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }, /"rollingUpdate" is not in the \$retainKeys list/],
    ['$setElementOrder not a list', { metadata: { '$setElementOrder/finalizers': 'a' } }, /setElementOrder list/],
    ['$setElementOrder inconsistent with patch', { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b', image: 'x' }] } } } }, /doesn't match \$setElementOrder/],
    ['$deleteFromPrimitiveList not a list', { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } }, /primitive list/],
  ];
  for (const [name, patch, message] of cases) {
    test(name, () => {
      assert.throws(() => applyStrategicMergePatch(liveDeployment(), patch, deploymentSchema), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.equal(e.code, 400);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});
