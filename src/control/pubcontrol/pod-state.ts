/**
 * How a PodUnavailableBudget sees one pod (docs/design/podunavailablebudget.md §2): the PUB it is
 * bound to, whether it counts as available (running, Ready, no unavailable label, state-consistent),
 * and whether an update of it can make it unavailable.
 */
import type { Pod } from '../../api/core/index.js';
import {
  DeprecatedPodRelatedPubAnnotation, PodPubNoProtectionAnnotation, PodRelatedPubAnnotation, PubUnavailablePodLabelPrefix,
} from '../../api/kruise/ops/podunavailablebudget.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isPodUpdateCompleted } from '../inplaceupdate/index.js';
import { isPodReady } from '../podutil/index.js';

/** The PUB named by the pod's annotation (new key first, then the legacy one). */
export function relatedPub(pod: Pod): string | undefined {
  const a = pod.metadata.annotations;
  return a?.[PodRelatedPubAnnotation] || a?.[DeprecatedPodRelatedPubAnnotation] || undefined;
}

/** Both related-pub annotations, as the webhook and the controller write them. */
export const relatedPubAnnotations = (pub: string): Record<string, string> => ({ [PodRelatedPubAnnotation]: pub, [DeprecatedPodRelatedPubAnnotation]: pub });

const goTrue = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** `pub.kruise.io/no-protect` in any of Go's strconv.ParseBool true forms. */
export const isNoProtect = (pod: Pod): boolean => goTrue.has(pod.metadata.annotations?.[PodPubNoProtectionAnnotation] ?? '');

export function hasUnavailableLabel(labels: Record<string, string> | undefined): boolean {
  return Object.keys(labels ?? {}).some((k) => k.startsWith(PubUnavailablePodLabelPrefix));
}

/** Running, Ready and without an `unavailable-pod.kruise.io/` label. */
export function isPubReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod) && !hasUnavailableLabel(pod.metadata.labels);
}

const isDigest = (image: string | undefined): boolean => !!image && image.includes('@sha256:');

/**
 * Every digest image runs that digest; when not all images are digests, any Kruise in-place update
 * must also be complete. (SidecarSet sidecar updates are judged by the SidecarSet feature.)
 */
export function isStateConsistent(pod: Pod): boolean {
  let allDigests = true;
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  for (const c of pod.spec?.containers ?? []) {
    if (!isDigest(c.image)) {
      allDigests = false;
      continue;
    }
    const digest = c.image!.slice(c.image!.indexOf('@') + 1);
    if (!statuses.get(c.name)?.imageID?.endsWith(digest)) return false;
  }
  return allDigests || isPodUpdateCompleted(pod);
}

/** Counts towards currentAvailable: active, ready and consistent. */
export function isPubAvailable(pod: Pod): boolean {
  return !pod.metadata.deletionTimestamp && isPubReady(pod) && isStateConsistent(pod);
}

/** An update can make the pod unavailable: its spec changed, or it gained an unavailable label. */
export function isUnavailableChange(oldPod: Pod, newPod: Pod): boolean {
  if (!deepEqual(oldPod.spec, newPod.spec)) return true;
  return !hasUnavailableLabel(oldPod.metadata.labels) && hasUnavailableLabel(newPod.metadata.labels);
}

const resourceNames = ['cpu', 'memory'];

/**
 * A resize: the only spec change is cpu/memory requests or limits of the same containers, each
 * changed resource restartable without a restart, and no unavailable label added.
 */
export function isResizeOnly(oldPod: Pod, newPod: Pod): boolean {
  if (!hasUnavailableLabel(oldPod.metadata.labels) && hasUnavailableLabel(newPod.metadata.labels)) return false;
  const a = oldPod.spec.containers;
  const b = newPod.spec.containers;
  if (a.length !== b.length || a.some((c, i) => c.name !== b[i].name)) return false;
  const strip = (p: Pod) => ({ ...p.spec, containers: p.spec.containers.map((c) => ({ ...c, resources: undefined })) });
  if (!deepEqual(strip(oldPod), strip(newPod))) return false;
  let changed = false;
  for (let i = 0; i < a.length; i++) {
    for (const kind of ['requests', 'limits'] as const) {
      const before = a[i].resources?.[kind] ?? {};
      const after = b[i].resources?.[kind] ?? {};
      for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (before[name] === after[name]) continue;
        if (!resourceNames.includes(name)) return false;
        const policy = b[i].resizePolicy?.find((r) => r.resourceName === name)?.restartPolicy;
        if (policy && policy !== 'NotRequired') return false;
        changed = true;
      }
    }
  }
  return changed;
}
