import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';
import { moreScenarioExamples } from '../../api/kruise/ops/scenario-examples-2.fixture.js';
import { fieldErrorMessage } from '../../machinery/errors.js';
import { admissionInput, assertHasError, enabled } from '../testkit.js';
import { AdmissionDenied } from '../kind-webhook.js';
import { createNodeImageWebhooks, nodeImageWebhooks } from './index.js';

const gates = enabled('KruiseDaemon');
const createdAt = '2024-01-01T00:00:00Z';
const policy = { ttlSecondsAfterFinished: 300 };

function nodeImage(images: Record<string, unknown>): NodeImage {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', metadata: { name: 'n1' }, spec: { images: images as NonNullable<NodeImage['spec']>['images'] } };
}
const validate = (obj: NodeImage) => nodeImageWebhooks.validate!(admissionInput({ operation: 'UPDATE', object: obj, gates, oldObject: obj }));

describe('NodeImage validation', () => {
  const cases: { name: string; images: Record<string, unknown>; field: string; fragment: string }[] = [
    { name: 'tag without ttlSecondsAfterFinished', images: { nginx: { tags: [{ tag: '1.25', createdAt, pullPolicy: { timeoutSeconds: 600 } }] } },
      field: 'spec.images[nginx].tags[0].pullPolicy.ttlSecondsAfterFinished', fragment: 'pullPolicy.ttlSecondsAfterFinished for nginx/1.25 must set' },
    { name: 'tag without pullPolicy', images: { nginx: { tags: [{ tag: '1.25', createdAt }] } },
      field: 'spec.images[nginx].tags[0].pullPolicy', fragment: 'pullPolicy field for nginx/1.25 must set' },
    { name: 'tag without createdAt', images: { nginx: { tags: [{ tag: '1.25', pullPolicy: policy }] } },
      field: 'spec.images[nginx].tags[0].createdAt', fragment: 'createAt field for nginx/1.25 can not be empty' },
    { name: 'empty tag', images: { nginx: { tags: [{ tag: '', createdAt, pullPolicy: policy }] } },
      field: 'spec.images[nginx].tags[0].tag', fragment: 'tag for image nginx can not be empty' },
    { name: 'duplicate tag', images: { nginx: { tags: [{ tag: '1', createdAt, pullPolicy: policy }, { tag: '1', createdAt, pullPolicy: policy }] } },
      field: 'spec.images[nginx].tags[1].tag', fragment: 'duplicated tag 1 for image nginx' },
    { name: 'negative version', images: { nginx: { tags: [{ tag: '1', createdAt, pullPolicy: policy, version: -1 }] } },
      field: 'spec.images[nginx].tags[0].version', fragment: 'version for nginx/1 can not be less than 0' },
    { name: 'empty image name', images: { '': { tags: [] } }, field: 'spec.images[]', fragment: 'image name can not be empty' },
    { name: 'more than 256 images', images: Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`img${i}`, { tags: [] }])),
      field: 'spec.images', fragment: 'spec images length 257 can not be more than 256' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const errs = await validate(nodeImage(c.images));
      assertHasError(errs, c.field, c.fragment);
    });
  }

  test('valid NodeImages pass: the scenario manifest, an empty one, a tag with ttl after defaulting', async () => {
    const scenario = parse(moreScenarioExamples.find((e) => e.name === 'NodeImage v1beta1 hand-written tag')!.yaml) as NodeImage;
    const handWritten = await nodeImageWebhooks.default!(admissionInput({ object: nodeImage({ nginx: { tags: [{ tag: '1.25', pullPolicy: policy }] } }) }));
    for (const obj of [scenario, nodeImage({}), handWritten as NodeImage]) assert.deepEqual((await validate(obj)).map(fieldErrorMessage), []);
  });

  test('KruiseDaemon off: 403', async () => {
    await assert.rejects(async () => nodeImageWebhooks.validate!(admissionInput({ object: nodeImage({}) })),
      (e: unknown) => e instanceof AdmissionDenied && e.code === 403 && e.message === 'feature-gate KruiseDaemon is not enabled');
  });

  test('field errors deny with 400', () => assert.equal(nodeImageWebhooks.invalidCode, 400));
});

test('NodeImage defaults: createdAt from the clock (whole seconds), pull policy 600 s / 3 retries, set values kept', async () => {
  const webhooks = createNodeImageWebhooks({ now: () => new Date('2025-03-04T05:06:07.890Z') });
  const input = nodeImage({ nginx: { tags: [{ tag: 'a' }, { tag: 'b', createdAt, pullPolicy: { timeoutSeconds: 5, ttlSecondsAfterFinished: 9 } }] } });
  const out = await webhooks.default!(admissionInput({ object: input })) as NodeImage;
  assert.deepEqual(out.spec?.images?.nginx.tags, [
    { tag: 'a', createdAt: '2025-03-04T05:06:07Z', pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } },
    { tag: 'b', createdAt, pullPolicy: { timeoutSeconds: 5, backoffLimit: 3, ttlSecondsAfterFinished: 9 } },
  ]);
  assert.equal(input.spec?.images?.nginx.tags[0].createdAt, undefined, 'input untouched');
});
