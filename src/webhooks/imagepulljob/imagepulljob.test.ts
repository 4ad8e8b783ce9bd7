import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { ImagePullJobProtectionFinalizer, type ImagePullJob } from '../../api/kruise/ops/imagepulljob.js';
import { invalidExamples } from '../../api/kruise/ops/invalid-examples.fixture.js';
import { moreScenarioExamples } from '../../api/kruise/ops/scenario-examples-2.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import { fieldErrorMessage, type FieldError } from '../../machinery/errors.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { admissionInput, assertHasError, enabled } from '../testkit.js';
import { imagePullJobWebhooks } from './index.js';

const gates = enabled('KruiseDaemon', 'ImagePullJobGate');

function job(spec: Record<string, unknown>, version = 'v1beta1'): ImagePullJob {
  return { apiVersion: `apps.kruise.io/${version}`, kind: 'ImagePullJob', metadata: { name: 'j', namespace: 't' }, spec: spec as ImagePullJob['spec'] };
}

/** Validation after defaulting, as the API server runs the two webhooks. */
async function admit(obj: ImagePullJob, opts: { old?: ImagePullJob; gates?: Record<string, boolean> } = {}): Promise<FieldError[]> {
  const op = opts.old ? 'UPDATE' : 'CREATE';
  const defaulted = await imagePullJobWebhooks.default!(admissionInput({ operation: op, object: obj, gates, oldObject: opts.old }));
  return imagePullJobWebhooks.validate!(admissionInput({ operation: op, object: defaulted, gates: opts.gates ?? gates, oldObject: opts.old }));
}

const example = (name: string): ImagePullJob => parse(specExamples.concat(moreScenarioExamples).find((e) => e.name === name)!.yaml) as ImagePullJob;

describe('ImagePullJob validation', () => {
  const cases: { name: string; spec: Record<string, unknown>; field: string; fragment: string }[] = [
    { name: 'names with a label selector', spec: { image: 'nginx:1.25', selector: { names: ['n1'], matchLabels: { a: 'b' } } },
      field: 'spec.selector', fragment: 'can not set both names and labelSelector in this spec.selector' },
    { name: 'percentage parallelism', spec: { image: 'nginx:1.25', parallelism: '50%' },
      field: 'spec.parallelism', fragment: 'parallelism does not support percentage value' },
    { name: 'deadline below the default timeout', spec: { image: 'nginx:1.25', completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 } },
      field: 'spec.completionPolicy.activeDeadlineSeconds', fragment: 'must be greater than pullPolicy.timeoutSeconds(default 600)' },
    { name: 'deadline below an explicit timeout', spec: { image: 'nginx', pullPolicy: { timeoutSeconds: 120 }, completionPolicy: { activeDeadlineSeconds: 100 } },
      field: 'spec.completionPolicy.activeDeadlineSeconds', fragment: 'completionPolicy.activeDeadlineSeconds must be greater' },
    { name: 'duplicate node names', spec: { image: 'nginx', selector: { names: ['n1', 'n1'] } },
      field: 'spec.selector.names', fragment: 'duplicated name in selector names' },
    { name: 'selector and podSelector', spec: { image: 'nginx', selector: { names: ['n1'] }, podSelector: { matchLabels: { app: 'x' } } },
      field: 'spec.podSelector', fragment: 'can not set both selector and podSelector' },
    { name: 'invalid node label selector', spec: { image: 'nginx', selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } },
      field: 'spec.selector', fragment: 'invalid selector: "Near" is not a valid label selector operator' },
    { name: 'invalid podSelector', spec: { image: 'nginx', podSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } },
      field: 'spec.podSelector', fragment: "invalid podSelector: values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty" },
    { name: 'empty image', spec: { image: '' }, field: 'spec.image', fragment: 'image can not be empty' },
    { name: 'unparseable image', spec: { image: 'Nginx:1.25' }, field: 'spec.image', fragment: 'invalid image Nginx:1.25: invalid reference format: repository name must be lowercase' },
    { name: 'non-integer parallelism', spec: { image: 'nginx', parallelism: 'abc' },
      field: 'spec.parallelism', fragment: 'parallelism must be a valid integer: strconv.ParseInt: parsing "abc": invalid syntax' },
    { name: 'negative parallelism', spec: { image: 'nginx', parallelism: -1 }, field: 'spec.parallelism', fragment: 'parallelism must be non-negative' },
    { name: 'negative parallelism string', spec: { image: 'nginx', parallelism: '-2' }, field: 'spec.parallelism', fragment: 'parallelism must be non-negative' },
    { name: 'Never with a TTL', spec: { image: 'nginx', completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } },
      field: 'spec.completionPolicy', fragment: 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType' },
    { name: 'unknown completion type', spec: { image: 'nginx', completionPolicy: { type: 'Sometimes' } },
      field: 'spec.completionPolicy.type', fragment: 'unknown type of completionPolicy: Sometimes' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const errs = await admit(job(c.spec));
      assertHasError(errs, c.field, c.fragment);
    });
  }

  test('valid manifests pass', async () => {
    for (const obj of [example('ImagePullJob pull-nginx'), job({ image: 'nginx:1.25', selector: { names: ['n1'] }, parallelism: '0' }),
      job({ image: 'ghcr.io/a/b:v1', podSelector: { matchLabels: { app: 'web' } }, completionPolicy: { type: 'Never' }, pullSecrets: ['reg'] }),
      job({ image: 'nginx', completionPolicy: { type: 'Always', activeDeadlineSeconds: 600 } })]) {
      assert.deepEqual((await admit(obj)).map(fieldErrorMessage), []);
    }
  });

  test('the scenario manifest combining every refused option is refused on each count', async () => {
    const fields = (await admit(example('ImagePullJob v1alpha1 with selectors and policies'))).map((e) => e.field);
    assert.deepEqual(fields, ['spec.selector', 'spec.parallelism']);
  });

  test('the CRD-level invalid example without image is refused by the webhook too', async () => {
    const obj = parse(invalidExamples.find((e) => e.name === 'ImagePullJob without image or completionPolicy')!.yaml) as ImagePullJob;
    assert.deepEqual((await admit(obj)).map(fieldErrorMessage), ['spec.image: Required value: image can not be empty']);
  });

  test('pullSecrets are immutable; other fields may change', async () => {
    const old = job({ image: 'nginx:1.25', pullSecrets: ['reg'] });
    const errs = await admit(job({ image: 'nginx:1.25', pullSecrets: ['other'] }), { old });
    assert.deepEqual(errs.map(fieldErrorMessage), ['spec.pullSecrets: Forbidden: spec.pullSecrets is immutable']);
    assert.deepEqual(await admit(job({ image: 'nginx:1.25', pullSecrets: ['reg'], parallelism: 3 }), { old }), []);
  });

  for (const [on, off] of [[['KruiseDaemon'], 'ImagePullJobGate'], [['ImagePullJobGate'], 'KruiseDaemon']] as const) {
    test(`${off} off: 403 before any validation`, async () => {
      const input: AdmissionInput = admissionInput({ object: job({ image: '' }), gates: enabled(...on) });
      await assert.rejects(async () => imagePullJobWebhooks.validate!(input),
        (e: unknown) => e instanceof AdmissionDenied && e.code === 403 && e.message === `feature-gate ${off} is not enabled`);
    });
  }

  test('field errors deny with 400', () => assert.equal(imagePullJobWebhooks.invalidCode, 400));
});

describe('ImagePullJob defaults', () => {
  test('a minimal job gets every default; only a v1alpha1 create gets the finalizer', async () => {
    const minimal = job({ image: 'nginx' });
    const beta = await imagePullJobWebhooks.default!(admissionInput({ object: minimal })) as ImagePullJob;
    assert.deepEqual(beta.spec, {
      image: 'nginx', completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent',
    });
    assert.equal(beta.metadata?.finalizers, undefined);
    const alpha = await imagePullJobWebhooks.default!(admissionInput({ object: minimal, version: 'v1alpha1' })) as ImagePullJob;
    assert.deepEqual(alpha.metadata?.finalizers, [ImagePullJobProtectionFinalizer]);
    const update = await imagePullJobWebhooks.default!(admissionInput({ operation: 'UPDATE', object: minimal, version: 'v1alpha1', oldObject: minimal })) as ImagePullJob;
    assert.equal(update.metadata?.finalizers, undefined);
    assert.deepEqual(minimal.spec, { image: 'nginx' }, 'input untouched');
  });

  test('set values are kept', async () => {
    const spec = { image: 'nginx', completionPolicy: { type: 'Never' }, pullPolicy: { timeoutSeconds: 10, backoffLimit: 1 }, imagePullPolicy: 'Always' };
    const out = await imagePullJobWebhooks.default!(admissionInput({ object: job(spec) })) as ImagePullJob;
    assert.deepEqual(out.spec, spec);
  });
});
