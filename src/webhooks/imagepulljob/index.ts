/**
 * ImagePullJob admission (mimagepulljob / vimagepulljob): defaults on CREATE and UPDATE (a
 * v1alpha1 CREATE also gets the deletion-protection finalizer); validation behind KruiseDaemon and
 * ImagePullJobGate (403 when off), field errors deny with 400 as upstream does.
 */
import type { KObject } from '../../api/meta.js';
import { defaultImagePullJob } from '../../api/kruise/ops/defaults.js';
import type { ImagePullJob } from '../../api/kruise/ops/imagepulljob.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { checkImagePullJobGates } from '../common/pull-job-template.js';
import { validateImagePullJob } from './validation.js';

export { validateImagePullJob } from './validation.js';

function objectOf(input: AdmissionInput): ImagePullJob {
  if (!input.object) throw new Error(`ImagePullJob admission without an object (${input.request.operation})`);
  return input.object as ImagePullJob;
}

export const imagePullJobWebhooks: KindWebhooks = {
  default(input: AdmissionInput): KObject {
    const addProtectionFinalizer = input.version === 'v1alpha1' && input.request.operation === 'CREATE';
    return defaultImagePullJob(objectOf(input), { addProtectionFinalizer }) as KObject;
  },
  validate(input: AdmissionInput) {
    checkImagePullJobGates(input);
    const old = input.request.operation === 'UPDATE' ? input.oldObject as ImagePullJob | undefined : undefined;
    return validateImagePullJob(objectOf(input), old);
  },
  invalidCode: 400,
};
