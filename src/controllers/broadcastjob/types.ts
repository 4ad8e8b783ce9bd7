/** The BroadcastJob as caches and clients hand it back (metadata always present). */
import type { ObjectMeta } from '../../api/meta.js';
import type { BroadcastJob as BroadcastJobSchema } from '../../api/kruise/ops/index.js';

export type BroadcastJob = BroadcastJobSchema & { metadata: ObjectMeta };
