/**
 * sidecarterminator-controller (gates SidecarTerminator and KruiseDaemon; docs/design/sidecarset.md
 * §8): once a job pod's main containers are done, stop its sidecars. On a virtual-kubelet node the
 * `..._WITH_IMAGE` sidecars get that image in place. Elsewhere a ContainerRecreateRequest
 * `sidecar-termination-<pod uid>` (forceRecreate, failurePolicy Ignore) has the node's daemon stop
 * them; sidecars that ignore their exit code are stopped only after the pod's phase has been set
 * from the main containers (condition SidecarTerminated), by a second request
 * `sidecar-termination-<uid>-ignore-exit-code` (upstream reuses the first name and never sends it).
 */
import type { Container, Node, Pod } from '../../api/core/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { withPodCondition } from '../../control/podutil/index.js';
import { isAlreadyExists, isConflict } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import {
  ignoresExitCode, isDue, isTerminated, mainsSucceeded, sidecarsOf, SidecarTerminatedCondition, VirtualKubeletLabel, withImage,
} from './rules.js';

export interface SidecarTerminatorDeps { client: Client; pods: Informer<Pod>; nodes: Informer<Node>; events: EventRecorder }

export class SidecarTerminatorReconciler {
  constructor(private readonly d: SidecarTerminatorDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    const pod = this.d.pods.get(req.namespace, req.name);
    if (!pod || !isDue(pod)) return;
    const node = this.d.nodes.get(undefined, pod.spec.nodeName ?? '');
    if (node?.metadata.labels?.[VirtualKubeletLabel.key] === VirtualKubeletLabel.value) return this.replaceImages(pod);
    const running = sidecarsOf(pod).filter((c) => !isTerminated(pod, c));
    const normal = running.filter((c) => !ignoresExitCode(c));
    const ignoring = sidecarsOf(pod).filter(ignoresExitCode);
    if (normal.length > 0) return this.recreate(pod, `sidecar-termination-${pod.metadata.uid}`, normal);
    if (ignoring.length === 0) return;
    if (pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') await this.setPhase(pod, ctx.clock.now());
    const left = ignoring.filter((c) => !isTerminated(pod, c));
    if (left.length > 0) await this.recreate(pod, `sidecar-termination-${pod.metadata.uid}-ignore-exit-code`, left);
  }

  private async replaceImages(pod: Pod): Promise<void> {
    let current = pod;
    for (let attempt = 0; ; attempt++) {
      const next = structuredClone(current);
      let changed = false;
      for (const c of next.spec.containers) {
        const image = withImage(c);
        if (image && c.image !== image && !isTerminated(current, c)) { c.image = image; changed = true; }
      }
      if (!changed) return;
      try {
        await this.d.client.update<Pod>(Pods, next);
        this.d.events.event(pod, 'Normal', 'SidecarTerminator', `Kruise SidecarTerminator is trying to terminate sidecar ${next.spec.containers.filter(withImage).map((c) => c.name).join(',')} using in-place upgrade`);
        return;
      } catch (e) {
        if (!isConflict(e) || attempt >= 4) throw e;
        current = await this.d.client.get<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!);
      }
    }
  }

  private async recreate(pod: Pod, name: string, containers: Container[]): Promise<void> {
    await this.d.client.create(ContainerRecreateRequests, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'ContainerRecreateRequest',
      metadata: {
        name, namespace: pod.metadata.namespace,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid!, controller: true, blockOwnerDeletion: true }],
      },
      spec: { podName: pod.metadata.name, containers: containers.map((c) => ({ name: c.name })), strategy: { forceRecreate: true, failurePolicy: 'Ignore' } },
    }).catch((e: unknown) => { if (!isAlreadyExists(e)) throw e; });
  }

  private async setPhase(pod: Pod, now: number): Promise<void> {
    const conditions = withPodCondition(pod.status?.conditions, {
      type: SidecarTerminatedCondition, status: 'True', message: 'Terminated by Sidecar Terminator',
    }, now) ?? pod.status?.conditions;
    await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', {
      status: { phase: mainsSucceeded(pod) ? 'Succeeded' : 'Failed', conditions },
    }, { subresource: 'status' });
  }
}
