/**
 * What the ImagePullJob controllers, the NodeImage controller and the daemon's image puller share:
 * image naming and the namespace holding the pull secrets daemons may read
 * (docs/design/image-pulling.md).
 */
export { splitImage, imageReference, sameImageName, type ImageNameTag } from './image-name.js';

/**
 * The one namespace whose Secrets a kruise-daemon reads (its Role allows nothing else): jobs'
 * pull secrets are copied here, so a node never holds the right to read users' secrets.
 */
export const DaemonConfigNamespace = 'kruise-daemon-config';
export { countTags, tagStatusOf, type TagStatus, type ImageSpec, type TagSpec } from './tag-status.js';
export type { NodeImageObject, ImagePullJobObject, ImageListPullJobObject } from './objects.js';
