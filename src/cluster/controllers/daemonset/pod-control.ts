/**
 * Daemon pods from the template (hash label, daemon tolerations, pinned to their node by affinity)
 * and the DaemonSet's pod writes: creates in slow-start batches, deletes in parallel, each
 * recorded in the expectations so the next sync waits for the cache.
 */
import type { Client } from '../../../client/client.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import type { Informer } from '../../../runtime/informer.js';
import { pinToNode, withDaemonTolerations } from '../../../machinery/scheduling/index.js';
import { newControllerRef } from '../../../control/ownership/index.js';
import { podFromTemplate } from '../../../control/podcontrol/pod-template.js';
import { hashLabel, templateGenerationAnnotation, templateGenerationLabel } from './types.js';
import type { Pod, DaemonSet } from '../../../api/core/index.js';
import { createGeneratedPodExpected, deletePods, slowStartBatch } from '../../../control/podcontrol/index.js';

export function newDaemonPod(ds: DaemonSet, nodeName: string, hash: string): Pod {
  const pod = podFromTemplate({ namespace: ds.metadata.namespace!, template: ds.spec?.template, ownerRef: newControllerRef(ds, 'apps/v1', 'DaemonSet') });
  const generation = ds.metadata.annotations?.[templateGenerationAnnotation];
  pod.metadata.labels = { ...pod.metadata.labels, [hashLabel]: hash, ...(generation ? { [templateGenerationLabel]: generation } : {}) };
  const spec = pod.spec ?? {};
  spec.tolerations = withDaemonTolerations(ds.spec?.template?.spec);
  spec.affinity = pinToNode(spec.affinity as Record<string, unknown> | undefined, nodeName);
  pod.spec = spec;
  return pod;
}

export interface DaemonPodControlOptions {
  client: Client;
  pods: Informer<Pod>;
  expectations: ScaleExpectations;
  events: EventRecorder;
}

export class DaemonPodControl {
  constructor(private readonly o: DaemonPodControlOptions) {}

  async create(key: string, ds: DaemonSet, nodes: string[], hash: string): Promise<void> {
    const { error } = await slowStartBatch(nodes.length, 1, async (i) => {
      const failed = (e: unknown) => this.o.events.event(ds, 'Warning', 'FailedCreate', `Error creating: ${(e as Error).message}`);
      const created = await createGeneratedPodExpected({ ...this.o, key }, newDaemonPod(ds, nodes[i]!, hash), failed);
      this.o.events.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    });
    if (error) throw error;
  }

  delete(key: string, ds: DaemonSet, pods: Pod[]): Promise<void> {
    return deletePods(this.o, key, ds, pods);
  }
}
