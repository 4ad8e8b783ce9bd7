/**
 * What the CRR webhook copies from the target pod (and its node) into a new request: node and
 * pod UID labels, the virtual-kubelet marker, the pod's termination grace period, and per
 * container its preStop hook, ports (for an httpGet hook) and the current container identity.
 */
import { CRRNodeNameLabel, CRRPodUidLabel, VirtualKubeletNodeLabel, VirtualKubeletNodeLabelValue, type ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import type { KObject } from '../../api/meta.js';
import { child, has, items, num, str, type Json } from '../../machinery/json.js';

type CRRContainer = NonNullable<ContainerRecreateRequest['spec']>['containers'][number];

/** A rejection of the request: HTTP 400 with this message. */
export class BadRequest extends Error {}

function findIn(pod: KObject, specList: string, statusList: string, name: string): [Json | undefined, Json | undefined] {
  const container = items(child(pod, 'spec'), specList).find((c) => str(c, 'name') === name);
  const status = items(child(pod, 'status'), statusList).find((c) => str(c, 'name') === name);
  return [container, status];
}

/** The container and its status, among containers first and then init containers. */
function podContainer(pod: KObject, name: string): [Json | undefined, Json | undefined] {
  const regular = findIn(pod, 'containers', 'containerStatuses', name);
  return regular[0] ? regular : findIn(pod, 'initContainers', 'initContainerStatuses', name);
}

/** Mutates `crr` (labels and strategy already present); throws BadRequest on a container problem. */
export function injectPod(crr: ContainerRecreateRequest, pod: KObject, node: KObject): void {
  const labels = crr.metadata!.labels!;
  labels[CRRNodeNameLabel] = str(child(pod, 'spec'), 'nodeName');
  labels[CRRPodUidLabel] = pod.metadata.uid ?? '';
  if (node.metadata.labels?.[VirtualKubeletNodeLabel] === VirtualKubeletNodeLabelValue) labels[VirtualKubeletNodeLabel] = VirtualKubeletNodeLabelValue;
  const spec = crr.spec!;
  const strategy = spec.strategy!;
  const grace = num(child(pod, 'spec'), 'terminationGracePeriodSeconds');
  if (strategy.terminationGracePeriodSeconds === undefined && grace !== undefined) strategy.terminationGracePeriodSeconds = grace;
  const seen = new Set<string>();
  for (const c of spec.containers) {
    if (seen.has(c.name)) throw new BadRequest(`can not recreate ${c.name} multi times`);
    seen.add(c.name);
    if (c.preStop || c.ports || c.statusContext) throw new BadRequest('preStop, ports, statusContext in container are ready-only fields');
    const [container, status] = podContainer(pod, c.name);
    if (!container) throw new BadRequest(`container ${c.name} not found in Pod`);
    if (!status) throw new BadRequest(`not found ${c.name} containerStatus in Pod Status`);
    const containerID = str(status, 'containerID');
    if (!containerID) throw new BadRequest(`no containerID in ${c.name} containerStatus, maybe the container has not been initialized`);
    const preStop = child(child(container, 'lifecycle'), 'preStop');
    if (preStop) {
      c.preStop = {};
      for (const key of ['exec', 'httpGet', 'tcpSocket'] as const) if (has(preStop, key)) (c.preStop as Json)[key] = preStop[key];
      if (c.preStop.httpGet && Array.isArray(container.ports)) c.ports = container.ports as CRRContainer['ports'];
    }
    c.statusContext = { containerID, restartCount: num(status, 'restartCount') ?? 0 };
  }
}
