/** ImagePullJob validation on the hub version (pure; gates are checked by the caller). */
import type { ImagePullJob, ImagePullJobSpec } from '../../api/kruise/ops/imagepulljob.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { validateCompletionPolicy, validateImage, validateParallelism, validateSelectors } from '../common/pull-job-template.js';

export function validateImagePullJob(job: ImagePullJob, old?: ImagePullJob): FieldError[] {
  const spec = job.spec ?? ({} as ImagePullJobSpec);
  const errs = [
    ...validateSelectors(spec),
    ...validateImage('spec.image', spec.image),
    ...validateParallelism(spec.parallelism),
    ...validateCompletionPolicy(spec),
  ];
  if (old && !deepEqual(spec.pullSecrets ?? [], old.spec?.pullSecrets ?? [])) {
    errs.push(field.forbidden('spec.pullSecrets', 'spec.pullSecrets is immutable'));
  }
  return errs;
}
