import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { DeploymentRows } from './deployments.js';
import { ruleAllowsList } from './access-checks.js';
import type { WorkloadRow } from './summaries.js';
import { Pods } from '../api/resource-type.js';

const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'default', generation: 2 }, spec: { replicas: 2 }, status: { observedGeneration: 2 } } as KObject;
const replicaSet = (revision: number, replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  metadata: { name: `api-h${revision}`, namespace: 'default', labels: { 'pod-template-hash': `h${revision}` }, annotations: { 'deployment.kubernetes.io/revision': String(revision) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', uid: 'u', controller: true }] },
  spec: { replicas }, status: { replicas },
} as KObject);

test('a Deployment row takes current and update revisions from its ReplicaSets', () => {
  const rows: WorkloadRow[] = [];
  const d = new DeploymentRows((r) => rows.push(r), () => undefined);
  d.replicaSet(replicaSet(1, 2)); // before the Deployment arrives: kept, no row yet
  assert.equal(rows.length, 0);
  d.deployment(deployment);
  assert.deepEqual([rows.at(-1)!.currentRevision, rows.at(-1)!.updateRevision, rows.at(-1)!.podRevision], ['1', '1', 'h1']);
  d.replicaSet(replicaSet(2, 1));
  assert.deepEqual([rows.at(-1)!.currentRevision, rows.at(-1)!.updateRevision, rows.at(-1)!.podRevision], ['1', '2', 'h2']);
  assert.deepEqual(rows.at(-1)!.podOwners, ['ReplicaSet/api-h1', 'ReplicaSet/api-h2']);
  d.replicaSet(replicaSet(1, 0)); // the old ReplicaSet scaled to 0: the rollout is through
  assert.deepEqual([rows.at(-1)!.currentRevision, rows.at(-1)!.updateRevision], ['2', '2']);
});

test('a rule allows listing when verb, group and resource match and it names no objects', () => {
  assert.ok(ruleAllowsList({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }, Pods));
  assert.ok(ruleAllowsList({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, Pods));
  assert.ok(!ruleAllowsList({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, Pods));
  assert.ok(!ruleAllowsList({ verbs: ['list'], apiGroups: ['apps'], resources: ['pods'] }, Pods));
  assert.ok(!ruleAllowsList({ verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['one'] }, Pods));
});
