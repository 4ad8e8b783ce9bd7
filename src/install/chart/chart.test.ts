/** charts/kruise is what the TypeScript description generates, and `kruise install` renders the same objects. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { KObject } from '../../api/meta.js';
import { chartObjects, installManifests } from '../manifests.js';
import { chartDir, generatedChart } from './write-chart.js';
import { defaultChartValues, mergeValues, type ChartValues } from './values.js';

const leafPaths = (v: unknown, prefix = ''): string[] => (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0
  ? Object.entries(v).flatMap(([k, x]) => leafPaths(x, prefix ? `${prefix}.${k}` : k)) : [prefix]);
const allValues = parse(readFileSync(path.join(chartDir, 'ci', 'all-values.yaml'), 'utf8')) as Record<string, unknown>;

describe('the Helm chart', () => {
  test('the committed templates and values.yaml are what `npm run chart:generate` writes', () => {
    const generated = generatedChart();
    const committed = readdirSync(path.join(chartDir, 'templates'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile()).map((e) => path.relative(chartDir, path.join(e.parentPath, e.name))).sort();
    assert.deepEqual(committed, [...generated.keys()].filter((k) => k.startsWith('templates')).sort(), 'run npm run chart:generate');
    for (const [rel, text] of generated) assert.equal(readFileSync(path.join(chartDir, rel), 'utf8'), text, `${rel} is stale: run npm run chart:generate`);
  });

  test('ci/all-values.yaml sets every value, none to its default', () => {
    const defaults = leafPaths(defaultChartValues);
    for (const p of defaults) {
      const read = (o: unknown) => p.split('.').reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], o);
      assert.notEqual(read(allValues), undefined, `${p} is not set`);
      assert.notDeepEqual(read(allValues), read(defaultChartValues), `${p} is at its default`);
    }
  });

  test('defaults: two manager replicas ready on /readyz, the daemon on every node, the pre-delete hook, the configuration', () => {
    const objects = chartObjects();
    const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name) as KObject & { spec: any };
    const deployment = find('Deployment', 'kruise-controller-manager');
    assert.equal(deployment.spec.replicas, 2);
    const manager = deployment.spec.template.spec.containers[0];
    assert.deepEqual(manager.readinessProbe.httpGet, { path: '/readyz', port: 'health' });
    assert.deepEqual(manager.env[1], { name: 'WEBHOOK_PORT', value: '9876' });
    assert.deepEqual(manager.env[2], { name: 'NODE_OPTIONS', value: '--max-old-space-size=384 --max-semi-space-size=4' });
    assert.deepEqual(manager.env.slice(3), [
      { name: 'MALLOC_ARENA_MAX', value: '2' }, { name: 'MALLOC_TRIM_THRESHOLD_', value: '131072' },
      { name: 'MALLOC_TOP_PAD_', value: '0' }, { name: 'MALLOC_MMAP_THRESHOLD_', value: '131072' },
    ]);
    assert.equal(deployment.spec.template.spec.serviceAccountName, 'kruise-manager');
    assert.equal(find('DaemonSet', 'kruise-daemon').spec.template.spec.serviceAccountName, 'kruise-daemon');
    assert.equal(find('Job', 'kruise-uninstall-check').metadata.annotations!['helm.sh/hook'], 'pre-delete');
    assert.equal(objects.filter((o) => o.kind === 'CustomResourceDefinition').length, installManifests().filter((o) => o.kind === 'CustomResourceDefinition').length);
    assert.deepEqual(installManifests().filter((o) => ['Deployment', 'DaemonSet', 'Job'].includes(o.kind!)), [], 'kruise up gets the configuration only');
  });

  test('values: conditions and fields follow them', () => {
    const values = mergeValues(defaultChartValues, allValues) as ChartValues;
    const objects = chartObjects(values);
    const kinds = new Set(objects.map((o) => o.kind));
    assert.ok(!kinds.has('CustomResourceDefinition'), 'crds.managed=false renders no CRD');
    assert.ok(!objects.some((o) => o.kind === 'Namespace' && o.metadata.name === 'kruise-ts'), 'createNamespace=false');
    assert.ok(!objects.some((o) => o.kind === 'Secret'), 'EnableExternalCerts=true: no certificate Secret');
    const configs = objects.filter((o) => o.kind!.endsWith('WebhookConfiguration'));
    assert.deepEqual(configs.map((c) => c.metadata.annotations), [0, 1].map(() => ({ template: '', 'cert-manager.io/inject-ca-from': 'kruise-ts/kruise-webhook-cert' })));
    const hooks = configs.flatMap((c) => c.webhooks as { name: string; failurePolicy: string; timeoutSeconds: number }[]);
    assert.equal(hooks.find((h) => h.name === 'mpod.kb.io')!.failurePolicy, 'Ignore');
    assert.equal(hooks.find((h) => h.name === 'vcloneset.kb.io')!.failurePolicy, 'Fail');
    assert.ok(hooks.every((h) => h.timeoutSeconds === 10));
    const noDaemon = chartObjects(mergeValues(defaultChartValues, { featureGates: 'KruiseDaemon=false' }) as ChartValues);
    assert.ok(!noDaemon.some((o) => o.kind === 'DaemonSet'));
  });

  test('mergeValues coalesces maps key by key and replaces lists; null removes', () => {
    assert.deepEqual(mergeValues({ a: { b: 1, c: [1] }, d: 2 }, { a: { c: [2] }, d: null }), { a: { b: 1, c: [2] }, d: undefined });
  });
});
