import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { KObject } from '../../api/meta.js';
import type { PodUnavailableBudget } from '../../api/kruise/ops/podunavailablebudget.js';
import { invalidExamples } from '../../api/kruise/ops/invalid-examples.fixture.js';
import { moreScenarioExamples } from '../../api/kruise/ops/scenario-examples-2.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import { fieldErrorMessage, type FieldError } from '../../machinery/errors.js';
import { admissionInput, assertHasError, enabled, fakeClient } from '../testkit.js';
import { AdmissionDenied } from '../kind-webhook.js';
import { isSelectorLooseOverlap, podUnavailableBudgetWebhooks } from './index.js';

const gates = enabled('PodUnavailableBudgetDeleteGate');
const appRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app' };

function pub(name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): PodUnavailableBudget {
  return { apiVersion: 'policy.kruise.io/v1beta1', kind: 'PodUnavailableBudget', metadata: { name, namespace: 'pb1', annotations }, spec };
}
/** A spec example read through v1beta1 (the two versions share these fields). */
function hub(yaml: string): PodUnavailableBudget {
  return { ...parse(yaml) as PodUnavailableBudget, apiVersion: 'policy.kruise.io/v1beta1' };
}
const existing = [pub('app-pub', { targetRef: appRef, maxUnavailable: 1 }), pub('api-pub', { selector: { matchLabels: { app: 'api' } }, maxUnavailable: 1 })];

async function validate(obj: PodUnavailableBudget, old?: PodUnavailableBudget): Promise<FieldError[]> {
  const client = fakeClient({ objects: existing as KObject[] });
  return podUnavailableBudgetWebhooks.validate!(admissionInput({ object: obj, gates, client, oldObject: old }));
}

describe('PodUnavailableBudget validation', () => {
  const cases: { name: string; obj: PodUnavailableBudget; old?: PodUnavailableBudget; field: string; fragment: string }[] = [
    { name: 'selector and targetRef (E.6 #9)', obj: pub('p', { selector: { matchLabels: { a: 'b' } }, targetRef: { ...appRef, name: 'x' }, maxUnavailable: 1 }),
      field: 'spec.selector, targetRef', fragment: 'selector and targetRef are mutually exclusive' },
    { name: 'neither max nor min (E.6 #9)', obj: pub('p', { targetRef: { ...appRef, name: 'x' } }),
      field: 'spec.maxUnavailable, minAvailable', fragment: 'no maxUnavailable or minAvailable defined in PodUnavailableBudget' },
    { name: 'maxUnavailable over 100% (E.6 #9)', obj: pub('p', { targetRef: { ...appRef, name: 'x' }, maxUnavailable: '120%' }),
      field: 'spec.maxUnavailable', fragment: 'must not be greater than 100%' },
    { name: 'a second PUB targeting app (E.6 #9)', obj: pub('p', { targetRef: { ...appRef, apiVersion: 'apps/v1beta2' }, minAvailable: 2 }),
      field: 'spec.targetReference', fragment: 'pub.spec.targetReference is in conflict with other PodUnavailableBudget app-pub' },
    { name: 'changing targetRef.name (E.6 #9)', obj: pub('app-pub', { targetRef: { ...appRef, name: 'other' }, maxUnavailable: 1 }),
      old: existing[0], field: 'spec.selector, targetRef', fragment: 'selector and targetRef cannot be modified' },
    { name: 'protect-total-replicas annotation "x" (E.6 #9)', obj: pub('p', { targetRef: { ...appRef, name: 'x' }, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': 'x' }),
      field: 'metadata.annotations[pub.kruise.io/protect-total-replicas]', fragment: 'must be a valid int32' },
    { name: 'annotation and spec.protectTotalReplicas disagree', obj: pub('p', { targetRef: { ...appRef, name: 'x' }, maxUnavailable: 1, protectTotalReplicas: 4 }, { 'pub.kruise.io/protect-total-replicas': '3' }),
      field: 'metadata.annotations[pub.kruise.io/protect-total-replicas]', fragment: 'must match spec.protectTotalReplicas when both are set' },
    { name: 'neither selector nor targetRef', obj: pub('p', { maxUnavailable: 1 }),
      field: 'spec.selector, targetRef', fragment: 'no selector or targetRef defined in PodUnavailableBudget' },
    { name: 'both max and min', obj: pub('p', { targetRef: { ...appRef, name: 'x' }, maxUnavailable: 1, minAvailable: 1 }),
      field: 'spec.maxUnavailable, minAvailable', fragment: 'maxUnavailable and minAvailable are mutually exclusive' },
    { name: 'negative minAvailable', obj: pub('p', { targetRef: { ...appRef, name: 'x' }, minAvailable: -1 }),
      field: 'spec.minAvailable', fragment: 'must be greater than or equal to 0' },
    { name: 'targetRef without name', obj: pub('p', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment' }, maxUnavailable: 1 }),
      field: 'spec.targetRef', fragment: 'empty targetRef is not valid for PodUnavailableBudget' },
    { name: 'unparseable targetRef apiVersion', obj: pub('p', { targetRef: { ...appRef, apiVersion: 'a/b/c' }, maxUnavailable: 1 }),
      field: 'spec.targetRef', fragment: 'unexpected GroupVersion string: a/b/c' },
    { name: 'empty selector', obj: pub('p', { selector: {}, maxUnavailable: 1 }), field: 'spec.selector', fragment: 'empty selector is not valid for PodUnavailableBudget.' },
    { name: 'invalid selector', obj: pub('p', { selector: { matchLabels: { 'a b': 'c' } }, maxUnavailable: 1 }), field: 'spec.selector.matchLabels', fragment: 'name part must consist of' },
    { name: 'selector loosely overlapping another PUB', obj: pub('p', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['api', 'db'] }] }, maxUnavailable: 1 }),
      field: 'spec.selector', fragment: 'pub.spec.selector is in conflict with other PodUnavailableBudget api-pub' },
    { name: 'operation outside the four (invalid-examples fixture)',
      obj: parse(invalidExamples.find((e) => e.name === 'PodUnavailableBudget operation outside its enum and zero total replicas')!.yaml) as PodUnavailableBudget,
      field: 'spec.protectOperations[0]', fragment: 'Unsupported value: "KILL": supported values: "DELETE", "UPDATE", "EVICT", "RESIZE"' },
    { name: 'empty ignoredPodSelector', obj: pub('p', { selector: { matchLabels: { a: 'b' } }, maxUnavailable: 1, ignoredPodSelector: {} }),
      field: 'spec.ignoredPodSelector', fragment: 'empty ignoredPodSelector is not valid for PodUnavailableBudget' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const errs = await validate(c.obj, c.old);
      assertHasError(errs, c.field, c.fragment);
    });
  }

  test('valid PUBs pass, including an update of an existing one that keeps its target', async () => {
    const examples = [...specExamples, ...moreScenarioExamples].filter((e) => e.yaml.includes('kind: PodUnavailableBudget'));
    assert.equal(examples.length, 3);
    const spec = examples.map((e) => hub(e.yaml)).map((p) => ({ ...p, metadata: { ...p.metadata, name: `${p.metadata?.name}-new` } }));
    const [appPub, bare, evictOnly] = spec;
    assert.deepEqual((await validate({ ...appPub, spec: { ...appPub.spec, targetRef: { ...appRef, name: 'other' } } })).map(fieldErrorMessage), []);
    for (const obj of [bare, evictOnly, pub('p', { selector: { matchLabels: { app: 'db' } }, minAvailable: '50%', protectOperations: ['DELETE', 'RESIZE'] })]) {
      assert.deepEqual((await validate(obj)).map(fieldErrorMessage), []);
    }
    const update = pub('app-pub', { targetRef: appRef, maxUnavailable: 2 });
    assert.deepEqual(await validate(update, existing[0]), []);
  });

  test('both PUB gates off: 400 for every write', async () => {
    await assert.rejects(async () => podUnavailableBudgetWebhooks.validate!(admissionInput({ object: pub('p', {}) })),
      (e: unknown) => e instanceof AdmissionDenied && e.code === 400
        && e.message === 'feature PodUnavailableBudget is invalid, please open via feature-gate(PodUnavailableBudgetDeleteGate, PodUnavailableBudgetUpdateGate)');
    const onlyUpdateGate = admissionInput({ object: pub('p', { targetRef: appRef, maxUnavailable: 1 }), gates: enabled('PodUnavailableBudgetUpdateGate') });
    assert.deepEqual(await podUnavailableBudgetWebhooks.validate!(onlyUpdateGate), []);
  });

  test('a failed lookup of the other PUBs denies', async () => {
    const client = fakeClient({ failList: () => new Error('boom') });
    const errs = await podUnavailableBudgetWebhooks.validate!(admissionInput({ object: pub('p', { targetRef: appRef, maxUnavailable: 1 }), gates, client }));
    assert.deepEqual(errs.map(fieldErrorMessage), [': Internal error: query other podUnavailableBudget failed, err: boom']);
  });

  test('field errors deny with 400; validating only', () => {
    assert.equal(podUnavailableBudgetWebhooks.invalidCode, 400);
    assert.equal(podUnavailableBudgetWebhooks.default, undefined);
  });
});

test('loose selector overlap', () => {
  const sel = (expr: string) => {
    const [key, operator, values] = expr.split(' ');
    return { matchExpressions: [{ key, operator: operator as 'In', values: values ? values.split(',') : [] }] };
  };
  const cases: [string, string, boolean][] = [
    ['a In b,c', 'a Exists', true], ['a In b,c', 'a In c,d', true], ['a In b,c', 'a In d', false],
    ['a In b,c', 'a NotIn b,c,e', false], ['a In b,c', 'a NotIn b', true], ['a NotIn b,c', 'a In b', false],
    ['a NotIn b,c', 'a In b,e', true], ['a DoesNotExist', 'a NotIn x', true], ['a DoesNotExist', 'a Exists', false],
    ['a Exists', 'b Exists', false],
  ];
  for (const [x, y, want] of cases) {
    assert.equal(isSelectorLooseOverlap(sel(x), sel(y)), want, `${x} / ${y}`);
    assert.equal(isSelectorLooseOverlap(sel(y), sel(x)), want, `${y} / ${x}`);
  }
  assert.equal(isSelectorLooseOverlap({ matchLabels: { a: 'b', c: 'd' } }, { matchLabels: { a: 'b' } }), false, 'different key sets');
  assert.equal(isSelectorLooseOverlap({ matchLabels: { a: 'b' } }, sel('a In b,x')), true);
});
