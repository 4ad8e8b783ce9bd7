/** The EphemeralJob as caches and clients hand it back (metadata always present), and its finalizer. */
import type { ObjectMeta } from '../../api/meta.js';
import type { EphemeralJob as EphemeralJobSchema } from '../../api/kruise/ops/ephemeraljob.js';

export type EphemeralJob = EphemeralJobSchema & { metadata: ObjectMeta };
export type EphemeralJobStatus = NonNullable<EphemeralJob['status']>;

/** Held until the job's ephemeral containers are dealt with (kube cannot remove them: nothing to do). */
export const EphemeralContainerFinalizer = 'apps.kruise.io/ephemeralcontainers-cleanup';

/** A template container: corev1.EphemeralContainer, schemaless in the CRD. */
export interface TemplateContainer {
  name?: string;
  env?: { name: string; value?: string }[];
  [key: string]: unknown;
}
