/**
 * NodeImage validation on the hub version (pure). Hand-written NodeImages must carry what the
 * ImagePullJob controller always writes: createdAt, a pull policy and its ttlSecondsAfterFinished.
 */
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';
import { field, type FieldError } from '../../machinery/errors.js';

export const MaxImagesPerNode = 256;

type ImageSpec = NonNullable<NonNullable<NodeImage['spec']>['images']>[string];

function validateTags(name: string, image: ImageSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, t] of (image.tags ?? []).entries()) {
    const p = `${path}.tags[${i}]`;
    if (!t.tag) {
      errs.push(field.required(`${p}.tag`, `tag for image ${name} can not be empty`));
      continue;
    }
    if (seen.has(t.tag)) errs.push(field.invalid(`${p}.tag`, t.tag, `duplicated tag ${t.tag} for image ${name}`));
    seen.add(t.tag);
    const fullName = `${name}/${t.tag}`;
    if (!t.createdAt) errs.push(field.required(`${p}.createdAt`, `createAt field for ${fullName} can not be empty`));
    if (typeof t.version === 'number' && t.version < 0) errs.push(field.invalid(`${p}.version`, t.version, `version for ${fullName} can not be less than 0`));
    if (!t.pullPolicy) errs.push(field.required(`${p}.pullPolicy`, `pullPolicy field for ${fullName} must set`));
    else if (t.pullPolicy.ttlSecondsAfterFinished === undefined || t.pullPolicy.ttlSecondsAfterFinished === null) {
      errs.push(field.required(`${p}.pullPolicy.ttlSecondsAfterFinished`, `pullPolicy.ttlSecondsAfterFinished for ${fullName} must set`));
    }
  }
  return errs;
}

export function validateNodeImage(nodeImage: NodeImage): FieldError[] {
  const images = nodeImage.spec?.images ?? {};
  const count = Object.keys(images).length;
  if (count > MaxImagesPerNode) {
    return [field.invalid('spec.images', count, `spec images length ${count} can not be more than ${MaxImagesPerNode}`)];
  }
  const errs: FieldError[] = [];
  for (const [name, image] of Object.entries(images)) {
    const path = `spec.images[${name}]`;
    if (!name) errs.push(field.invalid(path, name, 'image name can not be empty'));
    else errs.push(...validateTags(name, image, path));
  }
  return errs;
}
