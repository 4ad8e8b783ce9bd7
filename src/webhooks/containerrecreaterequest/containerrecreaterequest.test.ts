import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { invalidExamples } from '../../api/kruise/ops/invalid-examples.fixture.js';
import { scenarioExamples } from '../../api/kruise/ops/scenario-examples.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import { admissionInput, denial, fakeClient, fromYaml, type InputOptions } from '../testkit.js';
import { containerRecreateRequestWebhooks as hooks } from './index.js';

type Doc = Record<string, any>; // any: free-form test edits of manifests
const crr1 = (): KObject => fromYaml(specExamples.find((e) => e.name.includes('crr-1'))!.yaml);
const edit = (obj: KObject, patch: (o: Doc) => void): KObject => {
  const copy = structuredClone(obj);
  patch(copy as Doc);
  return copy;
};

const pod = (patch: (p: Doc) => void = () => undefined): KObject => edit({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 't', uid: 'u1' },
  spec: {
    nodeName: 'n1', restartPolicy: 'Always', terminationGracePeriodSeconds: 45,
    containers: [
      { name: 'app', image: 'nginx', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], lifecycle: { preStop: { httpGet: { path: '/stop', port: 'http' } } } },
      { name: 'side', image: 'busybox', lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 1'] } } } },
    ],
  },
  status: { phase: 'Running', containerStatuses: [
    { name: 'app', containerID: 'containerd://a1', restartCount: 2, ready: true },
    { name: 'side', containerID: 'containerd://s1', restartCount: 0, ready: true },
  ] },
}, patch);
const node = (labels: Record<string, string> = {}): KObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels } });
const cluster = (p: KObject = pod(), nodes: KObject[] = [node()]) => fakeClient({ objects: [p, ...nodes] });
const gates = { KruiseDaemon: true };
const create = (obj: KObject, o: InputOptions = {}) =>
  hooks.default!(admissionInput({ object: obj, client: cluster(), ...o, gates: { ...gates, ...o.gates } })) as Promise<Doc>;

describe('ContainerRecreateRequest admission on create', () => {
  test('binds the request to its pod and node and fills the read-only fields', async () => {
    const out = await create(crr1());
    assert.deepEqual(out.metadata.labels, { 'crr.apps.kruise.io/active': 'true', 'crr.apps.kruise.io/node-name': 'n1', 'crr.apps.kruise.io/pod-name': 'p1', 'crr.apps.kruise.io/pod-uid': 'u1' });
    assert.deepEqual(out.spec.strategy, { minStartedSeconds: 2, failurePolicy: 'Fail', terminationGracePeriodSeconds: 45 });
    assert.deepEqual(out.spec.containers, [{
      name: 'app', preStop: { httpGet: { path: '/stop', port: 'http' } },
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], statusContext: { containerID: 'containerd://a1', restartCount: 2 },
    }]);
    assert.equal(out.spec.ttlSecondsAfterFinished, 60);
  });

  test('exec hooks copy no ports; explicit grace and policy stay; serverless nodes mark the request', async () => {
    const obj = edit(crr1(), (o) => { o.spec.containers = [{ name: 'side' }]; o.spec.strategy = { failurePolicy: 'Ignore', terminationGracePeriodSeconds: 5 }; });
    const out = await create(obj, { client: cluster(pod(), [node({ type: 'virtual-kubelet' })]) });
    assert.deepEqual(out.spec.containers[0], { name: 'side', preStop: { exec: { command: ['sh', '-c', 'sleep 1'] } }, statusContext: { containerID: 'containerd://s1', restartCount: 0 } });
    assert.deepEqual(out.spec.strategy, { failurePolicy: 'Ignore', terminationGracePeriodSeconds: 5 });
    assert.equal(out.metadata.labels.type, 'virtual-kubelet');
  });

  test('a pod finished by the sidecar terminator still accepts requests', async () => {
    const done = pod((p) => { p.status.phase = 'Succeeded'; p.status.conditions = [{ type: 'SidecarTerminated', status: 'True' }]; });
    assert.equal((await create(crr1(), { client: cluster(done) })).metadata.labels['crr.apps.kruise.io/pod-uid'], 'u1');
  });

  const refused: [string, KObject, InputOptions, string][] = [
    ['no podName (schema fixture)', fromYaml(invalidExamples.find((e) => e.name.startsWith('ContainerRecreateRequest without podName'))!.yaml), {}, 'podName can not be empty'],
    ['no containers', edit(crr1(), (o) => { o.spec.containers = []; }), {}, 'containers list can not be null'],
    ['deadline below 3 s', edit(crr1(), (o) => { o.spec.activeDeadlineSeconds = 2; }), {}, 'activeDeadlineSeconds can not be less than 3s'],
    ['negative grace', edit(crr1(), (o) => { o.spec.strategy.terminationGracePeriodSeconds = -1; }), {}, 'terminationGracePeriodSeconds must be non-negative integer'],
    ['negative unready grace', edit(crr1(), (o) => { o.spec.strategy.unreadyGracePeriodSeconds = -1; }), {}, 'unreadyGracePeriodSeconds must be non-negative integer'],
    ['unknown failurePolicy', edit(crr1(), (o) => { o.spec.strategy.failurePolicy = 'Sometimes'; }), {}, 'unknown failurePolicy Sometimes'],
    ['missing pod', edit(crr1(), (o) => { o.spec.podName = 'p9'; }), {}, 'no found Pod named p9'],
    ['pending pod', crr1(), { client: cluster(pod((p) => { delete p.spec.nodeName; p.status.phase = 'Pending'; })) }, 'not allowed to recreate containers in a pending Pod'],
    ['finished pod', crr1(), { client: cluster(pod((p) => { p.status.phase = 'Failed'; })) }, 'not allowed to recreate containers in an inactive Pod'],
    ['deleting pod', crr1(), { client: cluster(pod((p) => { p.metadata.deletionTimestamp = '2024-01-01T00:00:00Z'; })) }, 'inactive Pod'],
    ['missing node', crr1(), { client: cluster(pod(), []) }, 'no found Node named n1'],
    ['unknown container', edit(crr1(), (o) => { o.spec.containers = [{ name: 'nope' }]; }), {}, 'container nope not found in Pod'],
    ['a container twice', edit(crr1(), (o) => { o.spec.containers = [{ name: 'app' }, { name: 'app' }]; }), {}, 'can not recreate app multi times'],
    ['read-only fields set', edit(crr1(), (o) => { o.spec.containers[0].statusContext = { containerID: 'x', restartCount: 0 }; }), {}, 'preStop, ports, statusContext in container are ready-only fields'],
    ['no container status', crr1(), { client: cluster(pod((p) => { p.status.containerStatuses = []; })) }, 'not found app containerStatus in Pod Status'],
    ['no container ID yet', crr1(), { client: cluster(pod((p) => { p.status.containerStatuses[0].containerID = ''; })) }, 'no containerID in app containerStatus'],
  ];
  for (const [name, obj, options, message] of refused) {
    test(`refuses with 400: ${name}`, async () => {
      const denied = await denial(() => create(obj, options));
      assert.equal(denied.code, 400);
      assert.ok(denied.message.includes(message), denied.message);
    });
  }

  test('refuses with 403 while KruiseDaemon is off', async () => {
    const denied = await denial(() => create(crr1(), { gates: { KruiseDaemon: false } }));
    assert.deepEqual([denied.code, denied.message], [403, 'feature-gate KruiseDaemon is not enabled']);
  });
});

describe('ContainerRecreateRequest admission on update', () => {
  const stored = (): KObject => fromYaml(scenarioExamples.find((e) => e.name.includes('ContainerRecreateRequest v1alpha1'))!.yaml);
  const update = (obj: KObject, version = 'v1beta1') => hooks.default!(admissionInput({ object: obj, oldObject: stored(), version, gates }));

  test('metadata and status changes pass unchanged', async () => {
    const obj = edit(stored(), (o) => { o.metadata.labels['crr.apps.kruise.io/active'] = undefined; o.status.phase = 'Completed'; });
    assert.deepEqual(await update(obj), obj);
  });

  const refused: [string, KObject, string, string][] = [
    ['spec change', edit(stored(), (o) => { o.spec.containers[1].name = 'other'; }), 'v1beta1', 'spec of ContainerRecreateRequest is immutable'],
    ['pod-uid label change', edit(stored(), (o) => { o.metadata.labels['crr.apps.kruise.io/pod-uid'] = 'u2'; }), 'v1beta1', 'not allowed to update immutable label crr.apps.kruise.io/pod-uid'],
    ['node-name label removed', edit(stored(), (o) => { delete o.metadata.labels['crr.apps.kruise.io/node-name']; }), 'v1beta1', 'not allowed to update immutable label crr.apps.kruise.io/node-name'],
  ];
  for (const [name, obj, version, message] of refused) {
    test(`refuses with 403: ${name}`, async () => {
      const denied = await denial(() => update(obj, version));
      assert.deepEqual([denied.code, denied.message], [403, message]);
    });
  }

  test('v1alpha1 clients may not move the unready-acquired time', async () => {
    const withGrace = (time: string) => edit(stored(), (o) => { o.status.conditions = [{ type: 'PreRecreateGrace', status: 'True', reason: 'PreRecreateGrace', message: '', lastTransitionTime: time }]; });
    const old = withGrace('2024-01-01T00:00:00Z');
    const moved = withGrace('2024-02-01T00:00:00Z');
    const denied = await denial(() => hooks.default!(admissionInput({ object: moved, oldObject: old, version: 'v1alpha1', gates })));
    assert.deepEqual([denied.code, denied.message], [403, 'not allowed to update immutable annotation crr.apps.kruise.io/unready-acquired']);
    await hooks.default!(admissionInput({ object: moved, oldObject: old, version: 'v1beta1', gates }));
  });

  test('mutating only', () => assert.equal(hooks.validate, undefined));
});
