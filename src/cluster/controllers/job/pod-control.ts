/**
 * The Job controller's writes to pods: create (slow-start batches), delete, and release the
 * job-tracking finalizer. Each write is announced to the expectations first and un-announced when it
 * fails, so reconcile never acts twice on a cache that has not caught up.
 */
import { Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isNotFound } from '../../../machinery/errors.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import { newJobPod } from './job-pod.js';
import { jobTrackingFinalizer } from './types.js';
import type { Pod, Job } from '../../../api/core/index.js';
import { createNamedPodExpected, deletePods, slowStartBatch } from '../../../control/podcontrol/index.js';

export interface JobPodControlOptions {
  client: Client;
  events: EventRecorder;
  /** Pod creates and deletes, keyed by Job key and pod name. */
  expectations: ScaleExpectations;
  /** Finalizer removals not yet seen in the cache, keyed by Job key and pod uid ('delete'). */
  finalizers: ScaleExpectations;
}

export class JobPodControl {
  constructor(private readonly o: JobPodControlOptions) {}

  /** Creates `count` pods (or one per index); returns how many were created, throwing after a failed batch. */
  async create(key: string, job: Job, count: number, indexes?: number[]): Promise<number> {
    const total = indexes ? indexes.length : count;
    const result = await slowStartBatch(total, 1, async (i) => {
      const pod = newJobPod(job, indexes?.[i]);
      const failed = (e: unknown) => this.o.events.event(job, 'Warning', 'FailedCreate', `Error creating: ${(e as Error).message}`);
      // a random-name clash (AlreadyExists) is no failure: the next sync creates another
      if (await createNamedPodExpected({ ...this.o, key }, pod, failed)) this.o.events.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
    });
    if (result.error) throw result.error;
    return result.successes;
  }

  delete(key: string, job: Job, pods: Pod[]): Promise<void> {
    return deletePods(this.o, key, job, pods);
  }

  /** Removes the tracking finalizer: the uids now released (pods already gone included) and the first error. */
  async release(key: string, pods: Pod[]): Promise<{ released: Set<string>; error?: unknown }> {
    const released = new Set<string>();
    const errors: unknown[] = [];
    await Promise.all(pods.map(async (pod) => {
      const uid = pod.metadata.uid!;
      this.o.finalizers.expect(key, 'delete', uid);
      try {
        await this.o.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', {
          metadata: { uid, [`$deleteFromPrimitiveList/finalizers`]: [jobTrackingFinalizer] },
        });
        released.add(uid);
      } catch (e) {
        if (isNotFound(e)) released.add(uid);
        else errors.push(e);
        this.o.finalizers.observe(key, 'delete', uid);
      }
    }));
    return { released, error: errors[0] };
  }

  /** Uids whose finalizer removal the cache has not reflected yet. */
  releasing(key: string): Set<string> {
    return new Set(this.o.finalizers.pendingFor(key).delete);
  }
}
