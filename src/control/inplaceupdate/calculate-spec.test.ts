import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateInPlaceUpdateSpec, cloneSetRevisionLabels } from './calculate-spec.js';
import { revision, template } from './test-kit.js';
import type { InPlaceUpdateOptions } from './types.js';
import type { Container, PodTemplateSpec } from '../../api/core/index.js';
import { templateOfRevision } from '../revision/index.js';

const app: Container = { name: 'app', image: 'nginx:1.25', env: [{ name: 'A', value: '1' }] };
const side: Container = { name: 'side', image: 'busybox:1.36' };
const base = template([app, side], { app: 'demo', tier: 'web' }, { note: 'x' });

function calc(next: PodTemplateSpec, options: InPlaceUpdateOptions = {}, old: PodTemplateSpec = base) {
  return calculateInPlaceUpdateSpec(revision('demo-old', old), revision('demo-new', next), options);
}
const withContainers = (f: (cs: Container[]) => void): PodTemplateSpec => {
  const t = structuredClone(base);
  f(t.spec!.containers!);
  return t;
};

describe('calculateInPlaceUpdateSpec: in place', () => {
  test('image replace of one container names that container only', () => {
    const spec = calc(withContainers((cs) => { cs[1].image = 'busybox:1.37'; }));
    assert.deepEqual(spec?.containerImages, { side: 'busybox:1.37' });
    assert.equal(spec?.revision, 'demo-new');
    assert.equal(spec?.metaDataPatch, undefined);
  });

  test('label and annotation add/replace/remove become a metadata patch', () => {
    const spec = calc(template([app, side], { app: 'demo', tier: 'api', extra: 'y' }, {}));
    assert.deepEqual(spec?.metaDataPatch, { labels: { tier: 'api', extra: 'y' }, annotations: { note: null } });
    assert.deepEqual(spec?.containerImages, {});
  });

  test('identical templates are trivially in place', () => {
    assert.deepEqual(calc(structuredClone(base))?.containerImages, {});
  });

  test('getRevision and graceSeconds options', () => {
    const spec = calc(base, { getRevision: (r) => r.metadata.name!.split('-').pop()!, graceSeconds: 5 });
    assert.deepEqual([spec?.revision, spec?.graceSeconds], ['new', 5]);
  });

  test('env fieldRef to a changed label moves it to that container (gate envFromMetadata)', () => {
    const ref = { ...app, env: [{ name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } }] };
    const spec = calc(template([ref, side], { app: 'demo', tier: 'api' }, { note: 'x' }), { envFromMetadata: true }, template([ref, side], { app: 'demo', tier: 'web' }, { note: 'x' }));
    assert.deepEqual(spec?.containerRefMetadata, { app: { labels: { tier: 'api' } } });
    assert.equal(spec?.updateEnvFromMetadata, true);
    assert.equal(spec?.metaDataPatch, undefined);
  });

  test('cpu/memory value replace with unchanged QoS (gate verticalScaling)', () => {
    const sized = withContainers((cs) => { cs[0].resources = { requests: { cpu: '100m', memory: '64Mi' } }; });
    const bigger = withContainers((cs) => { cs[0].resources = { requests: { cpu: '200m', memory: '64Mi' } }; });
    assert.deepEqual(calc(bigger, { verticalScaling: true }, sized)?.containerResources, { app: { requests: { cpu: '200m', memory: '64Mi' } } });
    assert.equal(calc(bigger, {}, sized), undefined, 'without the gate a resource change recreates');
  });
});

describe('calculateInPlaceUpdateSpec: recreate', () => {
  const cases: [string, PodTemplateSpec, InPlaceUpdateOptions?][] = [
    ['env change', withContainers((cs) => { cs[0].env = [{ name: 'A', value: '2' }]; })],
    ['command added', withContainers((cs) => { cs[0].command = ['sh']; })],
    ['ports added', withContainers((cs) => { cs[0].ports = [{ containerPort: 80 }]; })],
    ['volume added', { ...structuredClone(base), spec: { ...base.spec!, volumes: [{ name: 'v', emptyDir: {} }] } }],
    ['init container added', { ...structuredClone(base), spec: { ...base.spec!, initContainers: [{ name: 'i', image: 'x' }] } }],
    ['container added', withContainers((cs) => { cs.push({ name: 'third', image: 'x' }); })],
    ['container removed', withContainers((cs) => { cs.pop(); })],
    ['containers reordered', withContainers((cs) => { cs.reverse(); })],
    ['image removed', withContainers((cs) => { delete cs[0].image; })],
    ['other resource (gate on)', withContainers((cs) => { cs[0].resources = { requests: { 'ephemeral-storage': '1Gi' } }; }), { verticalScaling: true }],
    ['other metadata (finalizers)', { ...structuredClone(base), metadata: { ...base.metadata, finalizers: ['x'] } }],
  ];
  for (const [name, next, options] of cases) test(name, () => assert.equal(calc(next, options), undefined));

  test('resize that changes the QoS class', () => {
    const guaranteed = withContainers((cs) => { cs[0].resources = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }; cs[1].resources = structuredClone(cs[0].resources); });
    const burstable = structuredClone(guaranteed);
    burstable.spec!.containers![0].resources!.limits!.cpu = '2';
    assert.equal(calc(burstable, { verticalScaling: true }, guaranteed), undefined);
    assert.ok(calc(structuredClone(guaranteed), { verticalScaling: true }, guaranteed));
  });

  test('a resource key added (not a replace) recreates even with the gate', () => {
    const sized = withContainers((cs) => { cs[0].resources = { requests: { cpu: '100m' } }; });
    const more = withContainers((cs) => { cs[0].resources = { requests: { cpu: '100m', memory: '1Gi' } }; });
    assert.equal(calc(more, { verticalScaling: true }, sized), undefined);
  });

  test('a missing revision', () => {
    assert.equal(calculateInPlaceUpdateSpec(undefined, revision('x', base)), undefined);
  });
});

test('revision data given as JSON text; $patch is dropped', () => {
  const r = revision('r', base);
  r.data = JSON.stringify(r.data);
  assert.deepEqual(templateOfRevision(r), base);
});

test('cloneSetRevisionLabels adds the bare hash', () => {
  assert.deepEqual(cloneSetRevisionLabels('web-7d9f8c'), { 'controller-revision-hash': 'web-7d9f8c', 'pod-template-hash': '7d9f8c' });
});
