/** The image kinds as stored objects (metadata always present), the shape caches and clients hand back. */
import type { ObjectMeta } from '../../api/meta.js';
import type { ImageListPullJob } from '../../api/kruise/ops/imagelistpulljob.js';
import type { ImagePullJob } from '../../api/kruise/ops/imagepulljob.js';
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';

export type NodeImageObject = NodeImage & { metadata: ObjectMeta };
export type ImagePullJobObject = ImagePullJob & { metadata: ObjectMeta };
export type ImageListPullJobObject = ImageListPullJob & { metadata: ObjectMeta };
