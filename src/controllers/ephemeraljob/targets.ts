/**
 * Which pods an EphemeralJob works on (docs/design/jobs.md §5): active pods its selector matches in
 * its namespace, oldest first, skipping pods that already carry a same-named ephemeral container of
 * someone else, at most `replicas` of them; and which of those still need the job's containers.
 */
import type { EphemeralContainer, Pod } from '../../api/core/index.js';
import { EphemeralContainerEnvKey } from '../../api/kruise/ops/ephemeraljob.js';
import { isPodActive } from '../../control/podutil/index.js';
import type { EphemeralJob, TemplateContainer } from './types.js';
import { oldestFirst } from '../../machinery/order.js';

export const templateContainers = (job: EphemeralJob): TemplateContainer[] => (job.spec?.template?.ephemeralContainers ?? []) as TemplateContainer[];

/** The container carries KRUISE_EJOB_ID = this job's UID. */
export const ownedBy = (job: EphemeralJob, c: { env?: { name: string; value?: string }[] }): boolean =>
  (c.env ?? []).some((e) => e.name === EphemeralContainerEnvKey && e.value === job.metadata.uid);

/** A template container's name is taken on the pod by a container the job does not own. */
function takenByOther(job: EphemeralJob, pod: Pod): boolean {
  const existing = new Map((pod.spec.ephemeralContainers ?? []).map((c) => [c.name, c]));
  return templateContainers(job).some((t) => {
    const c = existing.get(t.name ?? '');
    return c !== undefined && !ownedBy(job, c);
  });
}


export function targetPods(job: EphemeralJob, matching: readonly Pod[]): Pod[] {
  const replicas = job.spec?.replicas;
  const out: Pod[] = [];
  for (const pod of [...matching].sort(oldestFirst)) {
    if (!isPodActive(pod) || takenByOther(job, pod)) continue;
    if (replicas === undefined || replicas === null || out.length < replicas) out.push(pod);
  }
  return out;
}

/** Targets without any of the job's containers yet. */
export function podsToInject(job: EphemeralJob, targets: readonly Pod[]): Pod[] {
  const names = new Set(templateContainers(job).map((t) => t.name));
  if (names.size === 0) return [];
  return targets.filter((pod) => !(pod.spec.ephemeralContainers ?? []).some((c) => names.has(c.name) && ownedBy(job, c)));
}

/** The containers to add: the template's, each with KRUISE_EJOB_ID set to the job's UID. */
export function containersFor(job: EphemeralJob): EphemeralContainer[] {
  return templateContainers(job).map((t) => ({ ...structuredClone(t), env: [...(t.env ?? []), { name: EphemeralContainerEnvKey, value: job.metadata.uid! }] }) as EphemeralContainer);
}

/** Expectation names: `<pod>-<container>`. */
export const expectationNames = (job: EphemeralJob, pod: Pod): string[] => templateContainers(job).map((t) => `${pod.metadata.name}-${t.name}`);
