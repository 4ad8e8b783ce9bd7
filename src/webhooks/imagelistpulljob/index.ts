/**
 * ImageListPullJob admission (mimagelistpulljob / vimagelistpulljob): the ImagePullJob defaults
 * minus imagePullPolicy; validation behind KruiseDaemon and ImagePullJobGate (403 when off), field
 * errors deny with 400 as upstream does.
 */
import type { KObject } from '../../api/meta.js';
import { defaultImageListPullJob } from '../../api/kruise/ops/defaults.js';
import type { ImageListPullJob } from '../../api/kruise/ops/imagelistpulljob.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { validateImageListPullJob } from './validation.js';
import { checkImagePullJobGates } from '../common/pull-job-template.js';

export { MaxImagesPerList, validateImageListPullJob } from './validation.js';

function objectOf(input: AdmissionInput): ImageListPullJob {
  if (!input.object) throw new Error(`ImageListPullJob admission without an object (${input.request.operation})`);
  return input.object as ImageListPullJob;
}

export const imageListPullJobWebhooks: KindWebhooks = {
  default(input: AdmissionInput): KObject {
    return defaultImageListPullJob(objectOf(input)) as KObject;
  },
  validate(input: AdmissionInput) {
    checkImagePullJobGates(input);
    return validateImageListPullJob(objectOf(input));
  },
  invalidCode: 400,
};
