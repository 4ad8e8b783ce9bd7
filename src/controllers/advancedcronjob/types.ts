/** The AdvancedCronJob as caches and clients hand it back (metadata always present), and its children. */
import type { ObjectMeta } from '../../api/meta.js';
import type { AdvancedCronJob as AdvancedCronJobSchema } from '../../api/kruise/ops/advancedcronjob.js';

export type AdvancedCronJob = AdvancedCronJobSchema & { metadata: ObjectMeta };

/** A Job, BroadcastJob or ImageListPullJob created by an AdvancedCronJob, as far as the controller reads it. */
export interface Child {
  [key: string]: unknown;
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: {
    conditions?: { type?: string; status?: string }[];
    startTime?: string;
    completionTime?: string;
    succeeded?: number;
    desired?: number;
  };
}
