/**
 * D.3 acceptance scenarios of docs/design/webhooks.md §12 end to end: workloads (built-in and
 * Kruise), namespaces (pods, Bound PVCs), CRDs, Services and Ingresses, dry-run, invalid values,
 * the metric and the protection log; and with the gate off nothing is protected and the Service
 * and Ingress entries are pruned from the live configuration.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { validatingConfigurationName } from '../../api/kruise/webhook-inventory.js';
import { AdvancedStatefulSets, CloneSets, UnitedDeployments } from '../../api/kruise/resource-types.js';
import {
  CustomResourceDefinitions, Deployments, Namespaces, PersistentVolumeClaims, Pods, Services, ValidatingWebhookConfigurations,
} from '../../api/resource-type.js';
import { startKruiseTestEnv, type KruiseTestEnv } from '../../testing/kruise-env.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { deletionProtectionMetrics, protectionLog } from '../../webhooks/protection/index.js';

const label = (value: string) => ({ 'policy.kruise.io/delete-protection': value });
const prefix = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=';
const forbidden = (text: string) => (e: Error & { code?: number }) => e.code === 403 && e.message.includes(text);

let w: WorkloadEnv;
let logDir: string;
before(async () => {
  logDir = await mkdtemp(path.join(tmpdir(), 'kt-protection-'));
  protectionLog.configure(logDir);
  w = await startWorkloadEnv({ nodes: 1, gates: 'ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true', controllers: () => undefined });
});
after(async () => {
  await w.stop();
  protectionLog.configure(undefined);
  await rm(logDir, { recursive: true, force: true });
});

const ns = (name: string, labels?: Record<string, string>) => w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels && { labels }) } });
const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
const workloadCount = async (kindNsName: string) => (await deletionProtectionMetrics.workloadDeletion.get()).values
  .filter((v) => v.labels.kind_namespace_name === kindNsName).reduce((a, v) => a + v.value, 0);

describe('deletion protection with ResourcesDeletionProtection on (D.3)', () => {
  test('1: a Cascading Deployment with replicas is refused until scaled to 0; counted once, logged', async () => {
    await ns('dp1');
    await w.client.create(Deployments, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'guarded', namespace: 'dp1', labels: label('Cascading') },
      spec: { replicas: 2, selector: { matchLabels: { app: 'g' } }, template: template('g') },
    });
    await assert.rejects(w.client.delete(Deployments, 'dp1', 'guarded'), forbidden(`${prefix}Cascading and replicas 2>0`));
    assert.equal(await workloadCount('Deployment_dp1_guarded'), 1);
    const log = (await readFile(path.join(logDir, 'protection.log'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    assert.ok(log.some((l) => l.Event === 'DeletionProtection' && l.Kind === 'Deployment' && l.Namespace === 'dp1' && l.Name === 'guarded'));
    await w.client.patch(Deployments, 'dp1', 'guarded', 'merge', { spec: { replicas: 0 } });
    await w.client.delete(Deployments, 'dp1', 'guarded');
    assert.equal(await workloadCount('Deployment_dp1_guarded'), 1);
  });

  test('2, 8, 9: an Always namespace is refused (server dry-run too) until unlabelled; an invalid value protects nothing', async () => {
    await ns('dp2', label('Always'));
    await assert.rejects(w.client.delete(Namespaces, undefined, 'dp2'), forbidden(`${prefix}Always`));
    const dry = await w.env.kubectl(['delete', 'namespace', 'dp2', '--dry-run=server']);
    assert.notEqual(dry.code, 0);
    assert.match(dry.stderr, /denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io\/delete-protection=Always/);
    await w.client.patch(Namespaces, undefined, 'dp2', 'merge', { metadata: { labels: { 'policy.kruise.io/delete-protection': null } } });
    await w.client.delete(Namespaces, undefined, 'dp2');
    await ns('dp9', label('Sometimes'));
    await w.client.delete(Namespaces, undefined, 'dp9');
  });

  test('3: a Cascading namespace is refused while a pod runs, then while a Bound PVC remains, then deleted', async () => {
    await ns('dp3', label('Cascading'));
    await w.client.create(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dp3' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    await assert.rejects(w.client.delete(Namespaces, undefined, 'dp3'), forbidden(`${prefix}Cascading and active pods 1>0`));
    await w.client.create(PersistentVolumeClaims, {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'dp3' },
      // no class: the simulated provisioner leaves it alone, and the test marks it Bound itself
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: '', resources: { requests: { storage: '1Gi' } } },
    });
    const pvc = await w.client.get(PersistentVolumeClaims, 'dp3', 'data');
    await w.client.updateStatus(PersistentVolumeClaims, { ...pvc, status: { phase: 'Bound' } });
    await w.client.delete(Pods, 'dp3', 'p', { gracePeriodSeconds: 0 });
    await eventually('pod gone', async () => w.client.get(Pods, 'dp3', 'p').then(() => false, () => true));
    await assert.rejects(w.client.delete(Namespaces, undefined, 'dp3'), forbidden(`${prefix}Cascading and "Bound" status pvc 1>0`));
    await w.client.delete(PersistentVolumeClaims, 'dp3', 'data');
    await eventually('pvc gone', async () => w.client.get(PersistentVolumeClaims, 'dp3', 'data').then(() => false, () => true));
    await w.client.delete(Namespaces, undefined, 'dp3');
  });

  test('4: CloneSet, Advanced StatefulSet and UnitedDeployment: Always refused, Cascading with replicas 0 deleted', async () => {
    await ns('dp4');
    const sel = { matchLabels: { app: 'k' } };
    const objects: Array<[typeof CloneSets, string, Record<string, unknown>]> = [
      [CloneSets, 'CloneSet', { selector: sel, template: template('k') }],
      [AdvancedStatefulSets, 'StatefulSet', { selector: sel, serviceName: 'k', template: template('k') }],
      [UnitedDeployments, 'UnitedDeployment', { selector: sel, template: { statefulSetTemplate: { metadata: { labels: { app: 'k' } }, spec: { selector: sel, template: template('k') } } }, topology: { subsets: [{ name: 'a' }] } }],
    ];
    for (const [type, kind, spec] of objects) {
      const name = kind.toLowerCase();
      await w.client.create(type, { apiVersion: `apps.kruise.io/${type.version}`, kind, metadata: { name: `${name}-always`, namespace: 'dp4', labels: label('Always') }, spec: { replicas: 1, ...spec } } as KObject);
      await assert.rejects(w.client.delete(type, 'dp4', `${name}-always`), forbidden(`${prefix}Always`));
      await w.client.create(type, { apiVersion: `apps.kruise.io/${type.version}`, kind, metadata: { name: `${name}-zero`, namespace: 'dp4', labels: label('Cascading') }, spec: { replicas: 0, ...spec } } as KObject);
      await w.client.delete(type, 'dp4', `${name}-zero`);
    }
  });

  test('5: a Cascading CRD is refused while a custom resource exists, deleted once none is left', async () => {
    await w.client.create(CustomResourceDefinitions, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com', labels: label('Cascading') },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    const widgets = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };
    await eventually('CRD served', async () => w.client.list(widgets, { namespace: 'default' }).then(() => true, () => false));
    await w.client.create(widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' } });
    await assert.rejects(w.client.delete(CustomResourceDefinitions, undefined, 'widgets.example.com'), forbidden(`${prefix}Cascading and active CRs 1>0`));
    await w.client.delete(widgets, 'default', 'w1');
    await w.client.delete(CustomResourceDefinitions, undefined, 'widgets.example.com');
  });

  test('6: a Service honours only Always, and its refusal is neither counted nor logged', async () => {
    const before = (await readFile(path.join(logDir, 'protection.log'), 'utf8').catch(() => '')).length;
    const svc = (name: string, value: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', labels: label(value) }, spec: { ports: [{ port: 80 }] } });
    await w.client.create(Services, svc('cascading', 'Cascading'));
    await w.client.delete(Services, 'default', 'cascading');
    await w.client.create(Services, svc('always', 'Always'));
    await assert.rejects(w.client.delete(Services, 'default', 'always'), forbidden(`${prefix}Always`));
    assert.equal((await readFile(path.join(logDir, 'protection.log'), 'utf8')).length, before);
  });
});

describe('deletion protection with the gate off (D.3 7)', () => {
  let off: KruiseTestEnv;
  before(async () => { off = await startKruiseTestEnv(); });
  after(() => off.stop());

  test('labelled objects delete freely and vservice/vingress are absent from the live configuration', async () => {
    const config = await eventually('configuration written', () => off.client.get<KObject & { webhooks?: Array<{ name: string }> }>(ValidatingWebhookConfigurations, undefined, validatingConfigurationName));
    const names = (config.webhooks ?? []).map((h) => h.name);
    assert.ok(!names.includes('vservice.kb.io') && !names.includes('vingress.kb.io'), names.join(','));
    await off.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'free', labels: label('Always') } });
    await off.client.delete(Namespaces, undefined, 'free');
    await off.client.create(Deployments, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'free', namespace: 'default', labels: label('Cascading') },
      spec: { replicas: 2, selector: { matchLabels: { app: 'f' } }, template: template('f') },
    });
    await off.client.delete(Deployments, 'default', 'free');
  });
});
