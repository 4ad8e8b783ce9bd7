/** ImagePullJob validation on the hub version (pure; gates are checked by the caller). */
import type { ImagePullJob, ImagePullJobSpec } from '../../api/kruise/ops/imagepulljob.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { normalizedReferenceError } from '../../machinery/image-reference.js';
import { validateCompletionPolicy, validateParallelism, validateSelectors } from './template.js';

/** One image reference at `path`: non-empty and parseable. */
export function validateImage(path: string, image: string | undefined): FieldError[] {
  if (!image) return [field.required(path, 'image can not be empty')];
  const err = normalizedReferenceError(image);
  return err ? [field.invalid(path, image, `invalid image ${image}: ${err}`)] : [];
}

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
