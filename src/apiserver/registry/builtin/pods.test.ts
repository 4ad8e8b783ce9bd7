import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { pullPolicyFor } from '../../../machinery/podspec/container-defaults.js';
import { podQosClass } from './qos.js';
import { findBuiltin, simulateCreate } from './strategy-harness.js';

const pods = findBuiltin('', 'pods');
const pod = (spec: Record<string, unknown>, name = 'p'): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const container = (extra: Record<string, unknown> = {}) => ({ name: 'app', image: 'nginx:1.27', ...extra });

describe('pod defaults', () => {
  test('a minimal pod gets every server default and admission side effect', () => {
    const { object, errors } = simulateCreate(pods, pod({ containers: [container({ ports: [{ containerPort: 80 }] })] }));
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, {
      containers: [{
        name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }],
        imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
      }],
      dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', terminationGracePeriodSeconds: 30, securityContext: {},
      schedulerName: 'default-scheduler', enableServiceLinks: true,
      serviceAccountName: 'default', serviceAccount: 'default',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0, preemptionPolicy: 'PreemptLowerPriority',
    });
    assert.deepEqual(object.status, { phase: 'Pending', qosClass: 'BestEffort' });
  });

  test('imagePullPolicy follows the tag', () => {
    const cases: [string, string][] = [
      ['nginx', 'Always'], ['nginx:latest', 'Always'], ['nginx:1.27', 'IfNotPresent'],
      ['localhost:5000/nginx', 'Always'], ['localhost:5000/nginx:v1', 'IfNotPresent'],
      ['nginx@sha256:abc', 'IfNotPresent'], ['nginx:latest@sha256:abc', 'Always'],
    ];
    for (const [image, policy] of cases) assert.equal(pullPolicyFor(image), policy, image);
  });

  test('requests are copied from limits and quantities canonicalised', () => {
    const { object } = simulateCreate(pods, pod({ containers: [container({ resources: { limits: { cpu: '1000m', memory: '1024Mi' }, requests: { cpu: '500m' } } })] }));
    const c = (object.spec as { containers: { resources: unknown }[] }).containers[0];
    assert.deepEqual(c.resources, { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    assert.equal((object.status as { qosClass: string }).qosClass, 'Burstable');
  });

  test('existing tolerations of the same taints are kept, not duplicated; re-defaulting is a no-op', () => {
    const tolerateAll = { operator: 'Exists' };
    const { object } = simulateCreate(pods, pod({ containers: [container()], tolerations: [tolerateAll] }));
    assert.deepEqual((object.spec as { tolerations: unknown[] }).tolerations, [tolerateAll]);
    const again = structuredClone(object);
    pods.strategy.default!(again);
    assert.deepEqual(again, object);
  });

  test('system priority classes give their priority', () => {
    const { object } = simulateCreate(pods, pod({ containers: [container()], priorityClassName: 'system-node-critical' }));
    assert.equal((object.spec as { priority: number }).priority, 2000001000);
  });

  test('probes get timings and httpGet defaults', () => {
    const { object } = simulateCreate(pods, pod({ containers: [container({ readinessProbe: { httpGet: { port: 80 } } })] }));
    const probe = (object.spec as { containers: { readinessProbe: unknown }[] }).containers[0].readinessProbe;
    assert.deepEqual(probe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  });

  test('scheduling gates give a PodScheduled=False condition on create', () => {
    const { object } = simulateCreate(pods, pod({ containers: [container()], schedulingGates: [{ name: 'example.com/gate' }] }));
    const conditions = (object.status as { conditions: { type: string; reason: string }[] }).conditions;
    assert.equal(conditions[0].type, 'PodScheduled');
    assert.equal(conditions[0].reason, 'SchedulingGated');
  });
});

describe('pod QoS', () => {
  const res = (requests?: object, limits?: object) => container({ resources: { ...(requests && { requests }), ...(limits && { limits }) } });
  const cases: [string, unknown[], string][] = [
    ['no resources', [container()], 'BestEffort'],
    ['limits equal requests', [res({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], 'Guaranteed'],
    ['equal in different units', [res({ cpu: '1000m', memory: '1024Mi' }, { cpu: '1', memory: '1Gi' })], 'Guaranteed'],
    ['memory limit missing', [res({ cpu: '1' }, { cpu: '1' })], 'Burstable'],
    ['requests below limits', [res({ cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], 'Burstable'],
    ['only extended resources', [res({ 'example.com/gpu': '1' })], 'BestEffort'],
  ];
  for (const [name, containers, expected] of cases) {
    test(name, () => assert.equal(podQosClass(pod({ containers })), expected));
  }
});

describe('pod validation', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['containers required', { containers: [] }, ['spec.containers: Required value']],
    ['name and image required', { containers: [{}] }, ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value']],
    ['duplicate names', { containers: [container(), container()] }, ['spec.containers[1].name: Duplicate value: "app"']],
    ['init container name clash', { containers: [container()], initContainers: [container()] }, ['spec.initContainers[0].name: Duplicate value: "app"']],
    ['restartPolicy enum', { containers: [container()], restartPolicy: 'Sometimes' },
      ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
    ['bad container name', { containers: [container({ name: 'App' })] },
      ["spec.containers[0].name: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['requests above limits', { containers: [container({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })] },
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1']],
    ['port protocol enum', { containers: [container({ ports: [{ containerPort: 80, protocol: 'HTTP' }] })] },
      ['spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
  ];
  for (const [name, spec, expected] of cases) {
    test(name, () => assert.deepEqual(simulateCreate(pods, pod(spec)).errors, expected));
  }
});

describe('pod fields and deletion grace', () => {
  test('field attributes', () => {
    const p = pod({ nodeName: 'n1', hostNetwork: true, containers: [container()] });
    p.status = { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }] };
    assert.deepEqual(pods.strategy.fieldAttributes!(p), {
      'spec.nodeName': 'n1', 'spec.restartPolicy': '', 'spec.schedulerName': '', 'spec.serviceAccountName': '',
      'spec.hostNetwork': 'true', 'status.phase': 'Running', 'status.podIP': '10.0.0.5', 'status.nominatedNodeName': '',
    });
  });

  test('grace: own value, default 30, 0 when unscheduled or finished', () => {
    const grace = pods.strategy.defaultGracePeriodSeconds!;
    assert.equal(grace(pod({ nodeName: 'n', terminationGracePeriodSeconds: 5 })), 5);
    assert.equal(grace(pod({ nodeName: 'n' })), 30);
    assert.equal(grace(pod({})), 0);
    assert.equal(grace({ ...pod({ nodeName: 'n' }), status: { phase: 'Succeeded' } }), 0);
  });
});
