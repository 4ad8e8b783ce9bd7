import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TablePrinter } from '../../api/resource.js';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { controllerRevisionPrinter, daemonSetPrinter, deploymentPrinter, statefulSetPrinter } from './workloads.js';

const now = new Date('2024-05-01T12:00:00Z');
const created = '2024-05-01T11:57:00Z';
const template = { spec: { containers: [{ name: 'web', image: 'nginx:1.25' }, { name: 'log', image: 'fluentbit' }] } };

function row(p: TablePrinter, obj: Record<string, unknown>): Record<string, unknown> {
  const cells = p.cells(obj, now);
  assert.equal(cells.length, p.columns.length);
  return Object.fromEntries(p.columns.map((c, i) => [c.name, cells[i]]));
}

describe('workload printers', () => {
  test('deployment', () => {
    const d = {
      metadata: { name: 'web', creationTimestamp: created },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web', tier: 'fe' } }, template },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    assert.deepEqual(deploymentPrinter.columns.filter((c) => c.priority === 0).map((c) => c.name), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age']);
    assert.deepEqual(row(deploymentPrinter, d), {
      Name: 'web', Ready: '2/3', 'Up-to-date': 3, Available: 2, Age: '3m',
      Containers: 'web,log', Images: 'nginx:1.25,fluentbit', Selector: 'app=web,tier=fe',
    });
  });

  test('deployment with an empty status', () => {
    const r = row(deploymentPrinter, { metadata: { name: 'x', creationTimestamp: created }, spec: { replicas: 0, template } });
    assert.equal(r.Ready, '0/0');
    assert.equal(r['Up-to-date'], 0);
  });

  test('statefulset and daemonset', () => {
    const ss = { metadata: { name: 'db', creationTimestamp: created }, spec: { replicas: 2, template }, status: { readyReplicas: 1 } };
    assert.deepEqual(row(statefulSetPrinter, ss), { Name: 'db', Ready: '1/2', Age: '3m', Containers: 'web,log', Images: 'nginx:1.25,fluentbit' });
    const ds = {
      metadata: { name: 'agent', creationTimestamp: created },
      spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['b', 'a'] }] }, template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    };
    const r = row(daemonSetPrinter, ds);
    assert.equal(r['Node Selector'], 'kubernetes.io/os=linux');
    assert.equal(r.Selector, 'app in (a,b)');
    assert.deepEqual([r.Desired, r.Current, r.Ready, r['Up-to-date'], r.Available], [3, 3, 2, 3, 2]);
  });

  test('controller revision shows its owner as kind.group/name', () => {
    const cr = {
      metadata: { name: 'db-6d4', creationTimestamp: created, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true }] },
      revision: 3,
    };
    assert.deepEqual(row(controllerRevisionPrinter, cr), { Name: 'db-6d4', Controller: 'statefulset.apps/db', Revision: 3, Age: '3m' });
  });

  test('jobs: status, completions and duration', () => {
    const running = { metadata: { name: 'j', creationTimestamp: created }, spec: { completions: 3, template }, status: { succeeded: 1, startTime: '2024-05-01T11:58:00Z' } };
    assert.deepEqual([row(jobPrinter, running).Status, row(jobPrinter, running).Completions, row(jobPrinter, running).Duration], ['Running', '1/3', '2m']);
    const done = {
      metadata: { name: 'j', creationTimestamp: created },
      spec: { parallelism: 2, template },
      status: { succeeded: 1, startTime: '2024-05-01T11:58:00Z', completionTime: '2024-05-01T11:58:30Z', conditions: [{ type: 'Complete', status: 'True' }] },
    };
    const r = row(jobPrinter, done);
    assert.deepEqual([r.Status, r.Completions, r.Duration], ['Complete', '1/1 of 2', '30s']);
  });

  test('cronjob', () => {
    const cj = {
      metadata: { name: 'nightly', creationTimestamp: created },
      spec: { schedule: '0 1 * * *', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ name: 'nightly-1' }], lastScheduleTime: '2024-05-01T11:59:00Z' },
    };
    const r = row(cronJobPrinter, cj);
    assert.deepEqual([r.Schedule, r.Timezone, r.Suspend, r.Active, r['Last Schedule']], ['0 1 * * *', '<none>', 'False', 1, '60s']);
  });
});
