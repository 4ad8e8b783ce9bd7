import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { scenarioExamples } from '../../api/kruise/ops/scenario-examples.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import { admissionInput, admit, assertHasError, assertNoErrors, fromYaml } from '../testkit.js';
import { broadcastJobWebhooks as hooks } from './index.js';

const example = (list: { name: string; yaml: string }[], name: string): KObject => fromYaml(list.find((e) => e.name.includes(name))!.yaml);
const base = (): KObject => example(specExamples, 'bcj-ok');
type Spec = Record<string, any>; // any: free-form test edits of manifests
const withSpec = (patch: (spec: Spec) => void): KObject => {
  const obj = base();
  patch(obj.spec as Spec);
  return obj;
};

describe('BroadcastJob defaulting', () => {
  test('a minimal manifest gets every default and no status', async () => {
    const obj = { ...base(), status: { phase: 'running', active: 3 } };
    const out = await hooks.default!(admissionInput({ object: obj })) as any; // any: reading nested defaults
    assert.equal(out.spec.parallelism, 2147483647);
    assert.deepEqual(out.spec.completionPolicy, { type: 'Always' });
    assert.deepEqual(out.spec.failurePolicy, { type: 'FailFast' });
    const pod = out.spec.template.spec;
    assert.equal(pod.restartPolicy, 'Never');
    assert.equal(pod.dnsPolicy, 'ClusterFirst');
    assert.equal(pod.terminationGracePeriodSeconds, 30);
    assert.equal(pod.schedulerName, 'default-scheduler');
    assert.equal(pod.containers[0].imagePullPolicy, 'Always');
    assert.equal(pod.containers[0].terminationMessagePath, '/dev/termination-log');
    assert.equal(out.status, undefined);
  });

  test('explicit values are kept', async () => {
    const obj = withSpec((s) => { s.parallelism = '50%'; s.completionPolicy = { type: 'Never' }; s.failurePolicy = { type: 'Pause', restartLimit: 3 }; });
    const out = await hooks.default!(admissionInput({ object: obj })) as any; // any: reading nested defaults
    assert.equal(out.spec.parallelism, '50%');
    assert.deepEqual(out.spec.completionPolicy, { type: 'Never' });
    assert.deepEqual(out.spec.failurePolicy, { type: 'Pause', restartLimit: 3 });
  });

  const podDefaulted = (o: KObject): boolean => (o as any).spec.template.spec.dnsPolicy === 'ClusterFirst'; // any: test probe
  test('template defaults only on create or template change, never with TemplateNoDefaults', async () => {
    const old = base();
    const sameTemplate = withSpec((s) => { s.parallelism = 1; });
    assert.equal(podDefaulted(await hooks.default!(admissionInput({ object: sameTemplate, oldObject: old }))), false);
    const newTemplate = withSpec((s) => { s.template.spec.containers[0].image = 'busybox:1.37'; });
    assert.equal(podDefaulted(await hooks.default!(admissionInput({ object: newTemplate, oldObject: old }))), true);
    assert.equal(podDefaulted(await hooks.default!(admissionInput({ object: base(), gates: { TemplateNoDefaults: true } }))), false);
  });
});

describe('BroadcastJob validation', () => {
  const invalid: [string, KObject, string, string][] = [
    ['template label broadcastjob-name (scenario fixture)', example(scenarioExamples, 'BroadcastJob v1alpha1'),
      'spec.template.metadata.labels', '"broadcastjob-name" and "broadcastjob-controller-uid" are not allowed to preset in pod labels'],
    ['template label broadcastjob-controller-uid', withSpec((s) => { s.template.metadata = { labels: { 'broadcastjob-controller-uid': 'u' } }; }),
      'spec.template.metadata.labels', 'are not allowed to preset in pod labels'],
    ['restartPolicy Always', withSpec((s) => { s.template.spec.restartPolicy = 'Always'; }),
      'spec.template.spec.restartPolicy', 'pod restartPolicy can only be Never or OnFailure'],
    ['restartPolicy unset (defaulted to Always)', withSpec((s) => { delete s.template.spec.restartPolicy; }),
      'spec.template.spec.restartPolicy', 'pod restartPolicy can only be Never or OnFailure'],
    ['Never with ttlSecondsAfterFinished', withSpec((s) => { s.completionPolicy = { type: 'Never', ttlSecondsAfterFinished: 1 }; }),
      'spec.completionPolicy.ttlSecondsAfterFinished', 'ttlSecondsAfterFinished can just work with Always'],
    ['Never with activeDeadlineSeconds', withSpec((s) => { s.completionPolicy = { type: 'Never', activeDeadlineSeconds: 5 }; }),
      'spec.completionPolicy.activeDeadlineSeconds', 'activeDeadlineSeconds can just work with Always'],
    ['container without image', withSpec((s) => { delete s.template.spec.containers[0].image; }),
      'spec.template.spec.containers[0].image', 'Required value'],
    ['name with an underscore', { ...base(), metadata: { name: 'bcj_1', namespace: 't' } },
      'metadata.name', "BroadcastJob name must consist of alphanumeric characters or '-'"],
    ['name longer than 63', { ...base(), metadata: { name: 'b'.repeat(64), namespace: 't' } },
      'metadata.name', 'must be no more than 63 characters'],
  ];
  for (const [name, obj, path, fragment] of invalid) {
    test(`rejects: ${name}`, async () => {
      const { errors } = await admit(hooks, admissionInput({ object: obj }));
      assertHasError(errors, path, fragment);
    });
  }

  test('accepts the spec manifest, Always with ttl and deadline, OnFailure, upper-case names', async () => {
    const valid = [
      base(),
      withSpec((s) => { s.completionPolicy = { type: 'Always', ttlSecondsAfterFinished: 2, activeDeadlineSeconds: 5 }; }),
      withSpec((s) => { s.template.spec.restartPolicy = 'OnFailure'; s.failurePolicy = { restartLimit: 3 }; }),
      { ...base(), apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'Bcj-OK', namespace: 't' } },
    ];
    for (const obj of valid) assertNoErrors((await admit(hooks, admissionInput({ object: obj }))).errors);
  });

  test('updates are validated like creates, with no immutable fields', async () => {
    const stored = (await admit(hooks, admissionInput({ object: base() }))).object as any; // any: free-form test edits
    const changed = structuredClone(stored);
    changed.spec.parallelism = 1;
    changed.spec.paused = true;
    changed.spec.completionPolicy = { type: 'Never' };
    assertNoErrors((await admit(hooks, admissionInput({ object: changed, oldObject: stored }))).errors);
    const bad = structuredClone(stored);
    bad.spec.template.spec.restartPolicy = 'Always';
    assertHasError((await admit(hooks, admissionInput({ object: bad, oldObject: stored }))).errors, 'spec.template.spec.restartPolicy', 'can only be Never or OnFailure');
  });

  test('answers 422', () => assert.equal(hooks.invalidCode, 422));
});
