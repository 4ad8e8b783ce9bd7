/**
 * pods/log: the checks kube makes first (the container must be one of the pod's, validateContainer;
 * a container that never started has no log yet, the kubelet's validateContainerLogStatus messages
 * as 400s), then the node's kubelet reads the log (docs/design/streaming.md §4): what the simulated
 * container wrote, text/plain, streamed while `follow=true`. Without a kubelet for the node the log
 * is one line saying there is none.
 */
import type { KObject } from '../../../api/meta.js';
import { errors } from '../../../machinery/errors.js';
import { getObject } from '../read.js';
import type { SubresourceAnswer, SubresourceStorage } from '../subresource.js';
import type { KubeletConnections, LogOptions, NodeStreams } from '../../../api/pod-streams.js';

interface StatusShape {
  name: string;
  containerID?: string;
  state?: { running?: object; terminated?: { containerID?: string }; waiting?: { reason?: string } };
  lastState?: { terminated?: { containerID?: string } };
}
interface PodShape {
  metadata: { uid?: string };
  spec?: { nodeName?: string; containers?: { name: string }[]; initContainers?: { name: string }[]; ephemeralContainers?: { name: string }[] };
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

export function podLogSubresource(kubelets?: KubeletConnections): SubresourceStorage {
  return {
    async get({ core, resource, namespace, name }, options) {
      const pod = await getObject(core, resource, namespace, name) as KObject & PodShape;
      const container = containerName(pod, name, options.container ?? '');
      const s = pod.status ?? {};
      const status = [...(s.containerStatuses ?? []), ...(s.initContainerStatuses ?? []), ...(s.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
      const logOptions = readLogOptions(options);
      const why = noLogReason(status, logOptions.previous);
      if (why === 'previous terminated') throw errors.badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
      if (why) throw errors.badRequest(`container "${container}" in pod "${name}" is ${why}`);
      const kubelet = pod.spec?.nodeName ? kubelets?.forNode(pod.spec.nodeName) : undefined;
      if (!kubelet) return { text: `[kruise-ts] simulated container ${container} of pod ${namespace}/${name}: no real process, no output\n`, contentType: 'text/plain' };
      return readLog(kubelet, { namespace: namespace ?? 'default', pod: name, uid: pod.metadata.uid ?? '', container }, logOptions);
    },
  };
}

/** kube's PodLogOptions from the query, with its validation messages. */
function readLogOptions(q: Readonly<Record<string, string>>): LogOptions {
  const int = (key: string, min: number): number | undefined => {
    if (q[key] === undefined) return undefined;
    const n = Number(q[key]);
    if (!Number.isInteger(n) || n < min) throw errors.badRequest(`PodLogOptions.meta.k8s.io "" is invalid: ${key}: Invalid value: ${q[key]}: must be greater than ${min === 0 ? 'or equal to 0' : '0'}`);
    return n;
  };
  const sinceSeconds = int('sinceSeconds', 1);
  const sinceTime = q.sinceTime ? Date.parse(q.sinceTime) : undefined;
  if (sinceSeconds !== undefined && sinceTime !== undefined) throw errors.badRequest('PodLogOptions.meta.k8s.io "" is invalid: sinceSeconds: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  return {
    follow: q.follow === 'true', previous: q.previous === 'true', timestamps: q.timestamps === 'true',
    tailLines: int('tailLines', 0), limitBytes: int('limitBytes', 1),
    sinceMs: sinceSeconds !== undefined ? Date.now() - sinceSeconds * 1000 : sinceTime,
  };
}

/** The kubelet's log: whole text when it ends at once, a stream while it follows. */
async function readLog(kubelet: NodeStreams, target: Parameters<NodeStreams['logs']>[0], options: LogOptions): Promise<SubresourceAnswer> {
  const contentType = 'text/plain';
  if (!options.follow) {
    let text = '';
    try {
      await kubelet.logs(target, options, { write: (t) => { text += t; }, end: () => undefined });
    } catch (e) {
      throw errors.badRequest((e as Error).message);
    }
    return { text, contentType };
  }
  return {
    contentType,
    stream: {
      start(write, end) {
        let stop: (() => void) | undefined;
        let stopped = false;
        kubelet.logs(target, options, { write, end }).then((s) => { stop = s; if (stopped) s(); }, () => end());
        return () => { stopped = true; stop?.(); };
      },
    },
  };
}
