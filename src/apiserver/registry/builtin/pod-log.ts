/**
 * pods/log: simulated kubelets run no processes, so a container's log is one line saying so, in
 * text/plain as kube-apiserver streams it. The checks kube makes are kept: the container must be
 * one of the pod's (validateContainer), and a container that never started has no log yet (the
 * kubelet's validateContainerLogStatus messages, returned as 400).
 */
import type { KObject } from '../../../api/meta.js';
import { errors } from '../../../machinery/errors.js';
import { getObject } from '../read.js';
import type { SubresourceStorage } from '../subresource.js';

interface StatusShape {
  name: string;
  containerID?: string;
  state?: { running?: object; terminated?: { containerID?: string }; waiting?: { reason?: string } };
  lastState?: { terminated?: { containerID?: string } };
}
interface PodShape {
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[]; ephemeralContainers?: { name: string }[] };
  status?: { containerStatuses?: StatusShape[]; initContainerStatuses?: StatusShape[]; ephemeralContainerStatuses?: StatusShape[] };
}

/** kube's validateContainer: the named container, or the only one. */
function containerName(pod: PodShape, name: string, asked: string): string {
  const spec = pod.spec ?? {};
  const all = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name);
  if (asked) {
    if (!all.includes(asked)) throw errors.badRequest(`container ${asked} is not valid for pod ${name}`);
    return asked;
  }
  const containers = spec.containers ?? [];
  if (containers.length === 1) return containers[0].name;
  if (containers.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
  throw errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
}

/** Why the kubelet has no log for the container, or undefined when it has one. */
function noLogReason(status: StatusShape | undefined, previous: boolean): string | undefined {
  if (previous) return status?.lastState?.terminated?.containerID ? undefined : 'previous terminated';
  if (status?.state?.running || status?.state?.terminated?.containerID || status?.lastState?.terminated?.containerID) return undefined;
  const reason = status?.state?.waiting?.reason;
  if (reason === 'ErrImagePull') return 'waiting to start: image can\'t be pulled';
  if (reason === 'ImagePullBackOff') return 'waiting to start: trying and failing to pull image';
  return reason ? `waiting to start: ${reason}` : 'waiting to start - no logs yet';
}

export const podLogSubresource: SubresourceStorage = {
  async get({ core, resource, namespace, name }, options) {
    const pod = await getObject(core, resource, namespace, name) as KObject & PodShape;
    const container = containerName(pod, name, options.container ?? '');
    const s = pod.status ?? {};
    const status = [...(s.containerStatuses ?? []), ...(s.initContainerStatuses ?? []), ...(s.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
    const why = noLogReason(status, options.previous === 'true');
    if (why === 'previous terminated') throw errors.badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
    if (why) throw errors.badRequest(`container "${container}" in pod "${name}" is ${why}`);
    return { text: `[kruise-ts] simulated container ${container} of pod ${namespace}/${name}: no real process, no output\n`, contentType: 'text/plain' };
  },
};
