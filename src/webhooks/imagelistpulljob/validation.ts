/**
 * ImageListPullJob validation on the hub version (pure): the shared ImagePullJob template checks
 * plus the image list (1..255 unique, each parseable).
 */
import type { ImageListPullJob, ImageListPullJobSpec } from '../../api/kruise/ops/imagelistpulljob.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { validateCompletionPolicy, validateImage, validateParallelism, validateSelectors } from '../common/pull-job-template.js';

export const MaxImagesPerList = 255;

function validateImages(images: string[] | undefined): FieldError[] {
  const list = images ?? [];
  if (list.length === 0) return [field.required('spec.images', 'image can not be empty')];
  const seen = new Set<string>();
  for (const [i, image] of list.entries()) {
    if (seen.has(image)) return [field.invalid(`spec.images[${i}]`, image, 'images cannot have duplicate values')];
    seen.add(image);
  }
  if (list.length > MaxImagesPerList) {
    return [field.invalid('spec.images', list.length, `the maximum number of images cannot > ${MaxImagesPerList}`)];
  }
  return list.flatMap((image, i) => validateImage(`spec.images[${i}]`, image));
}

/**
 * Unlike upstream, the Always deadline-vs-timeout rule is checked here too (docs/design/webhooks.md §14): every child
 * ImagePullJob inherits the template and would be refused by its own webhook otherwise.
 */
export function validateImageListPullJob(job: ImageListPullJob): FieldError[] {
  const spec = job.spec ?? ({} as ImageListPullJobSpec);
  return [
    ...validateSelectors(spec),
    ...validateImages(spec.images),
    ...validateParallelism(spec.parallelism),
    ...validateCompletionPolicy(spec),
  ];
}
