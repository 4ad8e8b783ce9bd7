import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { ImageListPullJob } from '../../api/kruise/ops/imagelistpulljob.js';
import { moreScenarioExamples } from '../../api/kruise/ops/scenario-examples-2.fixture.js';
import { fieldErrorMessage, type FieldError } from '../../machinery/errors.js';
import { admissionInput, assertHasError, enabled } from '../testkit.js';
import { AdmissionDenied } from '../kind-webhook.js';
import { imageListPullJobWebhooks } from './index.js';

const gates = enabled('KruiseDaemon', 'ImagePullJobGate');

function list(spec: Record<string, unknown>): ImageListPullJob {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: { name: 'l', namespace: 't' }, spec: spec as ImageListPullJob['spec'] };
}

async function admit(obj: ImageListPullJob): Promise<FieldError[]> {
  const defaulted = await imageListPullJobWebhooks.default!(admissionInput({ object: obj, gates }));
  return imageListPullJobWebhooks.validate!(admissionInput({ object: defaulted, gates }));
}

describe('ImageListPullJob validation', () => {
  const many = Array.from({ length: 256 }, (_, i) => `img${i}:1`);
  const cases: { name: string; spec: Record<string, unknown>; field: string; fragment: string }[] = [
    { name: 'no images', spec: { images: [] }, field: 'spec.images', fragment: 'image can not be empty' },
    { name: 'duplicate images', spec: { images: ['nginx:1.25', 'busybox', 'nginx:1.25'] }, field: 'spec.images[2]', fragment: 'images cannot have duplicate values' },
    { name: 'more than 255 images', spec: { images: many }, field: 'spec.images', fragment: 'the maximum number of images cannot > 255' },
    { name: 'unparseable image', spec: { images: ['nginx', 'Busy:1'] }, field: 'spec.images[1]', fragment: 'invalid image Busy:1: invalid reference format' },
    { name: 'percentage parallelism', spec: { images: ['nginx'], parallelism: '10%' }, field: 'spec.parallelism', fragment: 'parallelism does not support percentage value' },
    { name: 'names with labels', spec: { images: ['nginx'], selector: { names: ['n1'], matchExpressions: [] } },
      field: 'spec.selector', fragment: 'can not set both names and labelSelector in this spec.selector' },
    { name: 'Never with a deadline', spec: { images: ['nginx'], completionPolicy: { type: 'Never', activeDeadlineSeconds: 1000 } },
      field: 'spec.completionPolicy', fragment: 'can only work with Always CompletionPolicyType' },
    { name: 'deadline below the timeout', spec: { images: ['nginx'], completionPolicy: { activeDeadlineSeconds: 60 } },
      field: 'spec.completionPolicy.activeDeadlineSeconds', fragment: 'pullPolicy.timeoutSeconds(default 600)' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const errs = await admit(list(c.spec));
      assertHasError(errs, c.field, c.fragment);
    });
  }

  test('valid manifests pass', async () => {
    const scenario = parse(moreScenarioExamples.find((e) => e.name === 'ImageListPullJob')!.yaml) as ImageListPullJob;
    for (const obj of [scenario, list({ images: many.slice(0, 255), parallelism: '2', podSelector: { matchLabels: { a: 'b' } } })]) {
      assert.deepEqual((await admit(obj)).map(fieldErrorMessage), []);
    }
  });

  test('gate off: 403', async () => {
    await assert.rejects(async () => imageListPullJobWebhooks.validate!(admissionInput({ object: list({ images: ['nginx'] }), gates: enabled('KruiseDaemon') })),
      (e: unknown) => e instanceof AdmissionDenied && e.code === 403 && e.message === 'feature-gate ImagePullJobGate is not enabled');
  });

  test('field errors deny with 400', () => assert.equal(imageListPullJobWebhooks.invalidCode, 400));
});

test('a minimal ImageListPullJob gets every default but imagePullPolicy', async () => {
  const out = await imageListPullJobWebhooks.default!(admissionInput({ object: list({ images: ['nginx'] }) })) as ImageListPullJob;
  assert.deepEqual(out.spec, { images: ['nginx'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
});
