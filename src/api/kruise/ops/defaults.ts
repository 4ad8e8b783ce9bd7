/**
 * The values OpenKruise's defaulting webhooks fill in, per kind, on the hub version (webhooks
 * convert to v1beta1 first). Each function returns a defaulted copy and never touches its input.
 * Core pod/container defaults (BroadcastJob and AdvancedCronJob templates, SidecarSet containers)
 * belong to the core pod defaulter; SidecarSet takes it as a hook (see defaults-sidecarset.ts).
 */
import type { AdvancedCronJob } from './advancedcronjob.js';
import type { BroadcastJob } from './broadcastjob.js';
import type { ContainerRecreateRequest } from './containerrecreaterequest.js';
import type { ImageListPullJob } from './imagelistpulljob.js';
import { ImagePullJobProtectionFinalizer, type ImagePullJob } from './imagepulljob.js';
import type { NodeImage } from './nodeimage.js';

export { defaultSidecarSet, type SidecarSetDefaultHooks } from './defaults-sidecarset.js';

/** BroadcastJob parallelism when unset: no limit (math.MaxInt32). */
export const DefaultBroadcastJobParallelism = 2147483647;
export const DefaultPullTimeoutSeconds = 600;
export const DefaultPullBackoffLimit = 3;
export const DefaultSuccessfulJobsHistoryLimit = 3;
export const DefaultFailedJobsHistoryLimit = 1;

interface PullPolicy { timeoutSeconds?: number; backoffLimit?: number }

function withPullPolicy<P extends PullPolicy>(p: P | undefined): P {
  return { ...p, timeoutSeconds: p?.timeoutSeconds ?? DefaultPullTimeoutSeconds, backoffLimit: p?.backoffLimit ?? DefaultPullBackoffLimit } as P;
}

/** completionPolicy.type Always, parallelism 2147483647, failurePolicy.type FailFast. */
export function defaultBroadcastJob(obj: BroadcastJob): BroadcastJob {
  const out = structuredClone(obj);
  const spec = out.spec;
  if (!spec) return out;
  spec.completionPolicy = { ...spec.completionPolicy, type: spec.completionPolicy?.type || 'Always' };
  spec.parallelism ??= DefaultBroadcastJobParallelism;
  spec.failurePolicy = { ...spec.failurePolicy, type: spec.failurePolicy?.type || 'FailFast' };
  return out;
}

/**
 * concurrencyPolicy Allow (Replace for ImageListPullJob templates), paused false, history
 * limits 3/1; an ImageListPullJob template without completionPolicy.type gets Always, pull
 * policy 600 s / 3 retries and imagePullPolicy IfNotPresent.
 */
export function defaultAdvancedCronJob(obj: AdvancedCronJob): AdvancedCronJob {
  const out = structuredClone(obj);
  const spec = out.spec;
  if (!spec) return out;
  const ilpj = spec.template?.imageListPullJobTemplate?.spec;
  if (ilpj && !ilpj.completionPolicy?.type) {
    ilpj.completionPolicy = { ...ilpj.completionPolicy, type: 'Always' };
    ilpj.pullPolicy = withPullPolicy(ilpj.pullPolicy);
    ilpj.imagePullPolicy ||= 'IfNotPresent';
  }
  spec.concurrencyPolicy ||= spec.template?.imageListPullJobTemplate ? 'Replace' : 'Allow';
  spec.paused ??= false;
  spec.successfulJobsHistoryLimit ??= DefaultSuccessfulJobsHistoryLimit;
  spec.failedJobsHistoryLimit ??= DefaultFailedJobsHistoryLimit;
  return out;
}

/** strategy.failurePolicy Fail (the pod-derived fields and labels need the pod: webhook work). */
export function defaultContainerRecreateRequest(obj: ContainerRecreateRequest): ContainerRecreateRequest {
  const out = structuredClone(obj);
  if (!out.spec) return out;
  out.spec.strategy = { ...out.spec.strategy, failurePolicy: out.spec.strategy?.failurePolicy || 'Fail' };
  return out;
}

/**
 * completionPolicy.type Always, pullPolicy 600 s / 3 retries, imagePullPolicy IfNotPresent;
 * `addProtectionFinalizer` (v1alpha1 creates) also adds `apps.kruise.io/deletion-protection`.
 */
export function defaultImagePullJob(obj: ImagePullJob, opts: { addProtectionFinalizer?: boolean } = {}): ImagePullJob {
  const out = structuredClone(obj);
  if (out.spec) {
    out.spec.completionPolicy = { ...out.spec.completionPolicy, type: out.spec.completionPolicy?.type || 'Always' };
    out.spec.pullPolicy = withPullPolicy(out.spec.pullPolicy);
    out.spec.imagePullPolicy ||= 'IfNotPresent';
  }
  if (opts.addProtectionFinalizer) {
    const meta = (out.metadata ??= {});
    if (!meta.finalizers?.includes(ImagePullJobProtectionFinalizer)) meta.finalizers = [...(meta.finalizers ?? []), ImagePullJobProtectionFinalizer];
  }
  return out;
}

/** As ImagePullJob minus imagePullPolicy. */
export function defaultImageListPullJob(obj: ImageListPullJob): ImageListPullJob {
  const out = structuredClone(obj);
  if (!out.spec) return out;
  out.spec.completionPolicy = { ...out.spec.completionPolicy, type: out.spec.completionPolicy?.type || 'Always' };
  out.spec.pullPolicy = withPullPolicy(out.spec.pullPolicy);
  return out;
}

/** Every tag gets createdAt = `now` (RFC 3339) when missing and pull policy 600 s / 3 retries. */
export function defaultNodeImage(obj: NodeImage, now: string): NodeImage {
  const out = structuredClone(obj);
  for (const image of Object.values(out.spec?.images ?? {})) {
    for (const tag of image.tags ?? []) {
      tag.createdAt ??= now;
      tag.pullPolicy = withPullPolicy(tag.pullPolicy);
    }
  }
  return out;
}
