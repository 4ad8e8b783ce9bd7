/**
 * Registration of ephemeraljob-controller (docs/design/jobs.md §5): woken by its jobs and by pods
 * of their namespace that their selectors match (before or after the change); a pod showing one of
 * a job's ephemeral containers (KRUISE_EJOB_ID = the job's UID) meets that job's create expectation.
 */
import type { Pod } from '../../api/core/index.js';
import { EphemeralContainerEnvKey } from '../../api/kruise/ops/ephemeraljob.js';
import { EphemeralJobs } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Controller } from '../../runtime/controller.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import type { ScaleExpectations } from '../../runtime/expectations.js';
import { EphemeralJobReconciler } from './reconcile.js';
import type { EphemeralJob } from './types.js';

export { EphemeralJobReconciler } from './reconcile.js';
export const ephemeralJobControllerName = 'ephemeraljob-controller';

interface Caches { jobs: EphemeralJob; pods: Pod }

const keyOf = (j: EphemeralJob): Request => ({ namespace: j.metadata.namespace, name: j.metadata.name! });

function jobsSelecting(jobs: Informer<EphemeralJob>, pod: Pod): EphemeralJob[] {
  return jobs.byIndex('namespace', pod.metadata.namespace!).filter((j) => {
    const selector = selectorFromLabelSelector(j.spec?.selector as MetaLabelSelector);
    return selector.matches(pod.metadata.labels);
  });
}

/** Meets `<pod>-<container>` for every ephemeral container a job put on the pod. */
function observeInjected(jobs: Informer<EphemeralJob>, expectations: ScaleExpectations, pod: Pod): void {
  for (const c of pod.spec.ephemeralContainers ?? []) {
    const uid = c.env?.find((e) => e.name === EphemeralContainerEnvKey)?.value;
    const job = uid ? jobs.byIndex('namespace', pod.metadata.namespace!).find((j) => j.metadata.uid === uid) : undefined;
    if (job) expectations.observe(`${job.metadata.namespace}/${job.metadata.name}`, 'create', `${pod.metadata.name}-${c.name}`);
  }
}

export function setupEphemeralJobController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<Caches>(ephemeralJobControllerName, { workers: options.workers ?? 10 })
    .for('jobs', EphemeralJobs, { indexes: ['namespace'] })
    .watches('pods', Pods, ({ informers }) => (pod) => jobsSelecting(informers.jobs, pod).map(keyOf), { indexes: ['namespace'] })
    .observes('pods', ({ informers, expectations }) => ({
      onAdd: (pod) => observeInjected(informers.jobs, expectations.scale, pod),
      onUpdate: (_old, pod) => observeInjected(informers.jobs, expectations.scale, pod),
    }))
    .complete(({ informers, client, expectations, events }) => new EphemeralJobReconciler({
      ...informers, client, events, expectations: expectations.scale, writes: expectations.updates,
    }));
}
