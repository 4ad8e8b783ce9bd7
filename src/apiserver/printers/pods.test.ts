import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { podPrinter } from './pods.js';

const now = new Date('2024-05-01T12:00:00Z');

function pod(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', creationTimestamp: '2024-05-01T11:00:00Z' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }, { name: 'sidecar', image: 'envoy' }] },
    status: {
      phase: 'Running',
      podIP: '10.0.0.5',
      podIPs: [{ ip: '10.0.0.5' }],
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        { name: 'app', ready: true, restartCount: 2, state: { running: { startedAt: '2024-05-01T11:56:00Z' } },
          lastState: { terminated: { exitCode: 1, finishedAt: '2024-05-01T11:55:00Z' } } },
        { name: 'sidecar', ready: true, restartCount: 0, state: { running: {} } },
      ],
    },
    ...overrides,
  };
}

function row(p: Record<string, unknown>): Record<string, unknown> {
  const cells = podPrinter.cells(p, now);
  return Object.fromEntries(podPrinter.columns.map((c, i) => [c.name, cells[i]]));
}

describe('pod printer', () => {
  test('columns and wide columns', () => {
    assert.deepEqual(podPrinter.columns.map((c) => [c.name, c.priority]), [
      ['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0],
      ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1],
    ]);
    assert.equal(podPrinter.columns[0].format, 'name');
  });

  test('a running pod with restarts', () => {
    assert.deepEqual(row(pod()), {
      Name: 'web-0', Ready: '2/2', Status: 'Running', Restarts: '2 (5m ago)', Age: '60m',
      IP: '10.0.0.5', Node: 'node-1', 'Nominated Node': '<none>', 'Readiness Gates': '<none>',
    });
  });

  test('a terminating pod', () => {
    const p = pod();
    (p.metadata as Record<string, unknown>).deletionTimestamp = '2024-05-01T11:59:00Z';
    assert.equal(row(p).Status, 'Terminating');
  });

  test('a deleted pod that already succeeded keeps its phase', () => {
    const p = pod({ status: { phase: 'Succeeded', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] } });
    (p.metadata as Record<string, unknown>).deletionTimestamp = '2024-05-01T11:59:00Z';
    assert.equal(row(p).Status, 'Completed');
    assert.deepEqual(podPrinter.conditions?.(p)?.[0]?.type, 'Completed');
  });

  test('waiting reasons win over the phase', () => {
    const p = pod({
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } },
          { name: 'sidecar', ready: true, restartCount: 0, state: { running: {} } },
        ],
      },
    });
    const r = row(p);
    assert.equal(r.Status, 'CrashLoopBackOff');
    assert.equal(r.Ready, '1/2');
    assert.equal(r.Restarts, '4');
  });

  test('init containers', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'app' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'i1', state: { terminated: { exitCode: 0 } } },
          { name: 'i2', state: { running: {} } },
        ],
      },
    });
    assert.equal(row(p).Status, 'Init:1/2');
    const failed = pod({
      spec: { initContainers: [{ name: 'i1' }], containers: [{ name: 'app' }] },
      status: { phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 3 } } }] },
    });
    assert.equal(row(failed).Status, 'Init:ExitCode:3');
  });

  test('sidecar init containers count towards READY', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
        initContainerStatuses: [{ name: 'proxy', started: true, ready: true, restartCount: 1, state: { running: {} } }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: {} } }],
      },
    });
    const r = row(p);
    assert.equal(r.Ready, '2/2');
    assert.equal(r.Restarts, '1');
  });

  test('pending pod without status, readiness gates and scheduling gates', () => {
    const p = pod({
      spec: { containers: [{ name: 'app' }], readinessGates: [{ conditionType: 'x/ready' }] },
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
    });
    const r = row(p);
    assert.equal(r.Ready, '0/1');
    assert.equal(r.Status, 'SchedulingGated');
    assert.equal(r.IP, '<none>');
    assert.equal(r['Readiness Gates'], '0/1');
  });
});
